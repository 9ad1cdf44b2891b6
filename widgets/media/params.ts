// URL parameters of the media widget: the one place they are declared. The page parses them with
// parseMediaParams(location.search); README's table comes from MEDIA_PARAM_DOCS.
import { numberIn, oneOf, param, paramDocs, parseParams } from '../../src/client/params.ts';
import type { ParamResult, ParamValues } from '../../src/client/params.ts';
import { keyField, themeFields } from '../shared/theme-params.ts';
import { debugField, instanceField } from '../shared/widget-params.ts';
import type { MediaTheme } from './view.ts';

export const WITH_TTS = ['duck', 'hold', 'ignore'] as const;
export type WithTts = (typeof WITH_TTS)[number];

export const mediaParamFields = {
	key: keyField,
	volume: param(numberIn(0, 1), {
		default: 1,
		expects: 'a number from 0 to 1',
		description:
			'loudness of the videos (in an overlay page `media_volume` sets it for videos alone)'
	}),
	with_tts: param(oneOf(WITH_TTS), {
		default: 'duck',
		expects: 'duck, hold or ignore',
		description:
			'while a tip is read aloud (TTS on this overlay or another source of this server): duck lowers the video, hold lets the video play on but starts the next one only after the tip, ignore does nothing'
	}),
	duck_volume: param(numberIn(0, 1), {
		default: 0.25,
		expects: 'a number from 0 to 1',
		description: 'with_tts=duck: the share of `volume` the video keeps while a tip is read'
	}),
	size: param(numberIn(0.1, 1), {
		default: 1,
		expects: 'a number from 0.1 to 1',
		description: 'width of the player as a share of the page (or of its box in an overlay)'
	}),
	info: param(oneOf(['on', 'off'] as const), {
		default: 'on',
		expects: 'on or off',
		description:
			'on: title, thumbnail and requester over the video for its first and last seconds, and a progress bar'
	}),
	claim: param(oneOf(['visible', 'active', 'always', 'never'] as const), {
		default: 'visible',
		expects: 'visible, active, always or never',
		description:
			'when this copy takes videos: visible (shown anywhere in OBS), active (on air in Program), always; never: only shows what another copy plays (the preview)'
	}),
	debug: debugField(
		'1 shows a diagnostics panel (connection, claim, the videos this copy could not play and why)'
	),
	instance: instanceField,
	...themeFields({
		position: 'center',
		describe: {
			font: 'font of the title and requester, installed on the streaming PC',
			color: 'text colour of the title and requester',
			accent: 'colour of the progress bar and the requester name',
			scale: 'size of the text under the video',
			position: 'where the player sits on the page (when `size` is below 1)'
		}
	})
};

export type MediaParams = ParamValues<typeof mediaParamFields>;

export function parseMediaParams(search: string | URLSearchParams): ParamResult<MediaParams> {
	return parseParams(mediaParamFields, search);
}

/**
 * The media widget's parameters inside an overlay page, whose URL it shares with the TTS widget:
 * `media_volume`, when given, is the videos' `volume` there.
 */
export function mediaParamsForOverlay(search: string | URLSearchParams): ParamResult<MediaParams> {
	const q = new URLSearchParams(search);
	const own = q.get('media_volume');
	q.delete('media_volume');
	if (own !== null) q.set('volume', own);
	const r = parseMediaParams(q);
	if (r.ok || own === null) return r;
	return { ok: false, errors: r.errors.map((e) => e.replace(/^volume\b/, 'media_volume')) };
}

export const MEDIA_PARAM_DOCS = paramDocs(mediaParamFields);

export function mediaTheme(p: MediaParams): MediaTheme {
	return {
		font: p.font,
		color: p.color,
		accent: p.accent,
		scale: p.scale,
		position: p.position,
		size: p.size,
		info: p.info === 'on'
	};
}
