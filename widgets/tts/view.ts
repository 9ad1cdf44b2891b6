// The TTS widget's view model: everything the markup shows, computed by the shell
// (tts-player.svelte.ts). The components hold no state of their own beyond animations.
import type { QueueTip } from '../../src/contract/index.ts';
import { queueView, type QueueStatus } from '../shared/queue-status.ts';
import type { Position } from '../shared/theme-params.ts';
import type { AlertStyle } from './tiers.ts';

/** The alert on screen: a tip from the TTS queue, already picked apart for display. */
export interface AlertView {
	/** The tip's order id; a different id is a different alert (fresh entrance, fresh caption). */
	id: string;
	/** Donor name as the upstream gives it (already filtered when `name_was_filtered`). */
	name: string;
	/** Null shows no amount (e.g. a sub reward). */
	amount: number | null;
	/** The tenant's currency (GET /me `tenant.currency`, `tenant.currency_symbol`). */
	currency: { code: string; symbol: string } | null;
	/** BCP 47 locale for number formatting; default: the browser's. */
	locale?: string;
	message: string | null;
	isSubReward: boolean;
	isReplay: boolean;
	/** The audio failed repeatedly and the message is shown as text only (text_fallback=on). */
	textOnly?: boolean;
	/** The tip's tier: look, colours, scale, image (tiers.ts). Absent: the classic look. */
	style?: Pick<AlertStyle, 'tier' | 'look' | 'color' | 'accent' | 'scale' | 'image'>;
}

export type TtsStatus = QueueStatus;

/** The debug panel (`debug=1`); values are shown as text, so the shell may pass any summary. */
export interface DiagnosticsView {
	/** e.g. `open`, `reconnecting in 4 s (attempt 3)`. */
	connection: string;
	lastEventId: string | null;
	/** Epoch milliseconds of the last realtime event. */
	lastEventAt: number | null;
	/** The claim reducer's state in a few words, e.g. `playing o_12 (attempt 1)`. */
	claim: string;
	obs: { inObs: boolean; visible: boolean; active: boolean; controlLevel: number | null };
	audioUnlocked: boolean;
	/** Anything else worth a row: ignored URL parameters, last error, instance id. */
	extra?: ReadonlyArray<readonly [label: string, value: string]>;
}

export interface TtsViewModel {
	status: TtsStatus;
	/** Why: the refusal or failure in a sentence (shown on the error card or debug panel). */
	statusDetail?: string;
	alert: AlertView | null;
	/** Turning false plays the exit animation; the shell clears `alert` after onAlertExited. */
	alertVisible: boolean;
	/** Length of the audio in seconds, once known: the caption highlight runs this long. */
	captionDurationS: number | null;
	/** Epoch milliseconds when playback really started; null while not playing. */
	captionStartedAt: number | null;
	debug: DiagnosticsView | null;
	/** Non-null: the URL parameters are wrong and nothing else runs. */
	paramErrors: string[] | null;
}

/** Theme from the URL parameters; unset values keep the stylesheet's defaults. */
export interface TtsTheme {
	/** A validated CSS font-family list. */
	font?: string;
	/** Validated CSS colours. */
	color?: string;
	accent?: string;
	scale: number;
	position: Position;
}

/** The view before anything connects; with `paramErrors`, that of a page that will not connect. */
export const initialTtsView = (paramErrors: string[] | null = null): TtsViewModel =>
	queueView(
		{ alert: null, alertVisible: false, captionDurationS: null, captionStartedAt: null },
		paramErrors
	);

/** A tip's card, in the look of its tier (`style`); `textOnly`: the message without its voice. */
export function alertView(
	tip: QueueTip,
	currency: AlertView['currency'],
	textOnly: boolean,
	s: AlertStyle
): AlertView {
	return {
		id: tip.order_id,
		name: tip.name,
		amount: tip.amount,
		currency,
		message: tip.message,
		isSubReward: tip.is_sub_reward,
		isReplay: tip.is_replay,
		textOnly,
		style: {
			tier: s.tier,
			look: s.look,
			color: s.color,
			accent: s.accent,
			scale: s.scale,
			image: s.image
		}
	};
}
