// The dock's Rules form and the rules it stands for (PUT /control/moderation, moderation.md), both
// ways: the words and names as three lists of lines each (one per outcome), the video rules' lists
// as two (Hold, Remove), the amounts and the longest video as the text of their inputs. Pure, so a
// save sends exactly what the form shows and an error the server names by its path
// (`words.3.text: empty`, `videos.channels.0.text: empty`) is shown as the streamer wrote it
// (Words · Hold, line 2; Videos · Channels · Hold, line 1).
import {
	noVideoRules,
	type ModerationRules,
	type RuleOutcome,
	type VideoOutcome
} from '../../src/contract/index.ts';
import { clockTime } from '../../src/core/media-source.ts';

export const OUTCOMES: readonly RuleOutcome[] = ['no_voice', 'hold', 'remove'];
/** A video is held or removed, never shown without voice. */
export const VIDEO_OUTCOMES: readonly VideoOutcome[] = ['hold', 'remove'];

/** What each list and choice is called in the form. */
export const OUTCOME_LABEL: Record<RuleOutcome, string> = {
	no_voice: 'No voice',
	hold: 'Hold',
	remove: 'Remove'
};

export interface VideoRulesForm {
	/** One channel, link, or title word a line, by outcome. */
	channels: Record<VideoOutcome, string>;
	links: Record<VideoOutcome, string>;
	words: Record<VideoOutcome, string>;
	/** m:ss (h:mm:ss), or seconds; '' for no longest. */
	maxLength: string;
	maxOutcome: VideoOutcome;
	holdEvery: boolean;
	/** '' for off. */
	fromAmount: string;
}

export interface RulesForm {
	/** One word or phrase a line, by outcome. */
	words: Record<RuleOutcome, string>;
	names: Record<RuleOutcome, string>;
	links: RuleOutcome | 'allowed';
	/** '' for no minimum. */
	minAmount: string;
	minOutcome: RuleOutcome;
	holdEvery: boolean;
	/** '' for off. */
	fromAmount: string;
	onReject: ModerationRules['onReject'];
	videos: VideoRulesForm;
}

/** A rule text's limit (the contract's RuleText). */
const MAX_TEXT = 100;
const MAX_AMOUNT = 1_000_000;
/** The contract's bounds of the longest video, in seconds. */
const MAX_SECONDS = 86_400;

function lines<O extends RuleOutcome>(
	rules: readonly { text: string; outcome: O }[],
	outcomes: readonly O[]
): Record<O, string> {
	const out = {} as Record<O, string>;
	for (const o of outcomes)
		out[o] = rules
			.filter((r) => r.outcome === o)
			.map((r) => r.text)
			.join('\n');
	return out;
}

export function formFromRules(rules: ModerationRules): RulesForm {
	const v = rules.videos;
	return {
		words: lines(rules.words, OUTCOMES),
		names: lines(rules.names, OUTCOMES),
		links: rules.links ?? 'allowed',
		minAmount: rules.minAmount ? String(rules.minAmount.amount) : '',
		minOutcome: rules.minAmount?.outcome ?? 'no_voice',
		holdEvery: rules.everyTip === 'hold',
		fromAmount: rules.fromAmount ? String(rules.fromAmount.amount) : '',
		onReject: rules.onReject,
		videos: {
			channels: lines(v.channels, VIDEO_OUTCOMES),
			links: lines(v.links, VIDEO_OUTCOMES),
			words: lines(v.words, VIDEO_OUTCOMES),
			maxLength: v.maxSeconds ? clockTime(v.maxSeconds.seconds) : '',
			maxOutcome: v.maxSeconds?.outcome ?? 'hold',
			holdEvery: v.every === 'hold',
			fromAmount: v.fromAmount ? String(v.fromAmount.amount) : ''
		}
	};
}

/** Where a list's entries come from: its outcome and line (1-based) for each, in order. */
interface Origin {
	outcome: RuleOutcome;
	line: number;
}

/** The form's lists, by their path in the rules. */
type List = 'words' | 'names' | 'videos.channels' | 'videos.links' | 'videos.words';
export type Origins = Record<List, Origin[]>;

const LIST_LABEL: Record<List, string> = {
	words: 'Words',
	names: 'Names',
	'videos.channels': 'Videos · Channels',
	'videos.links': 'Videos · Links',
	'videos.words': 'Videos · Title words'
};

/** The entries of a rule's lists, in the order the rules get them, with where each was written. */
function entries<O extends RuleOutcome>(text: Record<O, string>, outcomes: readonly O[]) {
	const rules: { text: string; outcome: O }[] = [];
	const origins: Origin[] = [];
	for (const outcome of outcomes) {
		const seen = new Set<string>();
		text[outcome].split('\n').forEach((raw, i) => {
			const t = raw.trim();
			if (t === '' || seen.has(t)) return;
			seen.add(t);
			rules.push({ text: t, outcome });
			origins.push({ outcome, line: i + 1 });
		});
	}
	return { rules, origins };
}

/** An amount input: '' → null; a number (a decimal comma too) from 0 up; else why not. */
function amount(text: string): number | null | string {
	const t = text.trim().replace(',', '.');
	if (t === '') return null;
	const n = Number(t);
	if (!Number.isFinite(n)) return 'not a number';
	if (n < 0) return 'below 0';
	return n > MAX_AMOUNT ? `above ${MAX_AMOUNT}` : n;
}

/** The longest video's input: '' → null; m:ss (h:mm:ss), or whole seconds; else why not. */
function seconds(text: string): number | null | string {
	const t = text.trim();
	if (t === '') return null;
	const m = /^(?:(?:(\d+):)?(\d+):)?(\d+)$/.exec(t);
	if (!m || (m[2] !== undefined && Number(m[3]) > 59) || (m[1] !== undefined && Number(m[2]) > 59))
		return 'not m:ss or seconds';
	const n = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3]);
	if (n < 1) return 'below 1 second';
	return n > MAX_SECONDS ? `above ${MAX_SECONDS} seconds (24 hours)` : n;
}

export type FromForm =
	{ ok: true; rules: ModerationRules; origins: Origins } | { ok: false; error: string };

/**
 * The rules the form stands for. `base`, the rules it was made from, keeps what the form does not
 * show: an every-tip or every-video rule other than hold, a from-amount rule's outcome other than
 * hold (all can be set through the API).
 */
export function rulesFromForm(form: RulesForm, base: ModerationRules): FromForm {
	const v = form.videos;
	const lists = {
		words: entries(form.words, OUTCOMES),
		names: entries(form.names, OUTCOMES),
		'videos.channels': entries(v.channels, VIDEO_OUTCOMES),
		'videos.links': entries(v.links, VIDEO_OUTCOMES),
		'videos.words': entries(v.words, VIDEO_OUTCOMES)
	};
	for (const [list, e] of Object.entries(lists) as [List, (typeof lists)[List]][]) {
		const at = e.rules.findIndex((r) => r.text.length > MAX_TEXT);
		if (at >= 0)
			return {
				ok: false,
				error: `${where(list, e.origins[at])}: longer than ${MAX_TEXT} characters`
			};
	}
	const min = amount(form.minAmount);
	if (typeof min === 'string') return { ok: false, error: `Minimum amount: ${min}` };
	const from = amount(form.fromAmount);
	if (typeof from === 'string') return { ok: false, error: `Hold from: ${from}` };
	const longest = seconds(v.maxLength);
	if (typeof longest === 'string')
		return { ok: false, error: `${FIELD_LABEL['videos.maxSeconds']}: ${longest}` };
	const videoFrom = amount(v.fromAmount);
	if (typeof videoFrom === 'string')
		return { ok: false, error: `${FIELD_LABEL['videos.fromAmount']}: ${videoFrom}` };
	const everyOther = base.everyTip === 'hold' ? null : base.everyTip;
	const everyVideoOther = base.videos.every === 'hold' ? null : base.videos.every;
	const origins = {} as Origins;
	for (const list of Object.keys(lists) as List[]) origins[list] = lists[list].origins;
	return {
		ok: true,
		rules: {
			words: lists.words.rules,
			names: lists.names.rules,
			links: form.links === 'allowed' ? null : form.links,
			minAmount: min === null ? null : { amount: min, outcome: form.minOutcome },
			everyTip: form.holdEvery ? 'hold' : everyOther,
			fromAmount:
				from === null ? null : { amount: from, outcome: base.fromAmount?.outcome ?? 'hold' },
			onReject: form.onReject,
			videos: {
				channels: lists['videos.channels'].rules,
				links: lists['videos.links'].rules,
				words: lists['videos.words'].rules,
				maxSeconds: longest === null ? null : { seconds: longest, outcome: v.maxOutcome },
				every: v.holdEvery ? 'hold' : everyVideoOther,
				fromAmount:
					videoFrom === null
						? null
						: { amount: videoFrom, outcome: base.videos.fromAmount?.outcome ?? 'hold' }
			}
		},
		origins
	};
}

function where(list: List, o: Origin | undefined): string {
	const name = LIST_LABEL[list];
	return o ? `${name} · ${OUTCOME_LABEL[o.outcome]}, line ${o.line}` : name;
}

/** The fields by their path in the rules (a video rule's under `videos.`). */
const FIELD_LABEL: Record<string, string> = {
	links: 'Links',
	minAmount: 'Minimum amount',
	everyTip: 'Hold every tip',
	fromAmount: 'Hold from',
	onReject: 'On reject',
	videos: 'Videos',
	'videos.maxSeconds': 'Videos · Longest video',
	'videos.every': 'Videos · Hold every video',
	'videos.fromAmount': 'Videos · Hold videos from',
	...LIST_LABEL
};

const ENTRY = /^(words|names|videos\.(?:channels|links|words))\.(\d+)(?:\.\w+)?: (.*)$/s;

/** One of the server's problems (`words.3.text: empty`) in the form's terms. */
function describeOne(message: string, origins: Origins): string {
	const m = ENTRY.exec(message);
	if (m) {
		const list = m[1] as List;
		return `${where(list, origins[list][Number(m[2])])}: ${m[3]}`;
	}
	const f = /^(\w+)(?:\.(\w+))?(?:\.\w+)*: (.*)$/s.exec(message);
	if (!f) return message;
	const label =
		(f[2] !== undefined ? FIELD_LABEL[`${f[1]}.${f[2]}`] : undefined) ?? FIELD_LABEL[f[1]];
	return label ? `${label}: ${f[3]}` : message;
}

/**
 * The server's refusal (`words.3.text: empty`, its problems joined by `; `) in the form's terms
 * (`Words · Hold, line 2: empty`); a problem it cannot place is shown as it came.
 */
export function describeRefusal(message: string, origins: Origins): string {
	return message
		.split('; ')
		.map((one) => describeOne(one, origins))
		.join('; ');
}

/** Two forms say the same rules (what a line's spaces or order of saving cannot change). */
export function sameRules(a: RulesForm, b: RulesForm, base: ModerationRules): boolean {
	const ra = rulesFromForm(a, base);
	const rb = rulesFromForm(b, base);
	if (!ra.ok || !rb.ok) return JSON.stringify(a) === JSON.stringify(b);
	return JSON.stringify(ra.rules) === JSON.stringify(rb.rules);
}

/** The rules when none are saved (the contract's defaults). */
export const NO_RULES: ModerationRules = {
	words: [],
	names: [],
	links: null,
	minAmount: null,
	everyTip: null,
	fromAmount: null,
	onReject: 'no_voice',
	videos: noVideoRules()
};
