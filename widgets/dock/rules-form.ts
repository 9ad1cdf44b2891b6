// The dock's Rules form and the rules it stands for (PUT /control/moderation, moderation.md), both
// ways: the words and names as three lists of lines each (one per outcome), the amounts as the
// text of their inputs. Pure, so a save sends exactly what the form shows and an error the server
// names by its path (`words.3.text: empty`) is shown as the streamer wrote it (Words · Hold,
// line 2).
import { noVideoRules, type ModerationRules, type RuleOutcome } from '../../src/contract/index.ts';

export const OUTCOMES: readonly RuleOutcome[] = ['no_voice', 'hold', 'remove'];

/** What each list and choice is called in the form. */
export const OUTCOME_LABEL: Record<RuleOutcome, string> = {
	no_voice: 'No voice',
	hold: 'Hold',
	remove: 'Remove'
};

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
}

/** A rule text's limit (the contract's RuleText). */
const MAX_TEXT = 100;
const MAX_AMOUNT = 1_000_000;

function lines(rules: { text: string; outcome: RuleOutcome }[]): Record<RuleOutcome, string> {
	const by = (o: RuleOutcome) =>
		rules
			.filter((r) => r.outcome === o)
			.map((r) => r.text)
			.join('\n');
	return { no_voice: by('no_voice'), hold: by('hold'), remove: by('remove') };
}

export function formFromRules(rules: ModerationRules): RulesForm {
	return {
		words: lines(rules.words),
		names: lines(rules.names),
		links: rules.links ?? 'allowed',
		minAmount: rules.minAmount ? String(rules.minAmount.amount) : '',
		minOutcome: rules.minAmount?.outcome ?? 'no_voice',
		holdEvery: rules.everyTip === 'hold',
		fromAmount: rules.fromAmount ? String(rules.fromAmount.amount) : '',
		onReject: rules.onReject
	};
}

/** Where a list's entries come from: its outcome and line (1-based) for each, in order. */
interface Origin {
	outcome: RuleOutcome;
	line: number;
}

/** The entries of three lists, in the order the rules get them, with where each was written. */
function entries(text: Record<RuleOutcome, string>) {
	const rules: { text: string; outcome: RuleOutcome }[] = [];
	const origins: Origin[] = [];
	for (const outcome of OUTCOMES) {
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

export type FromForm =
	| { ok: true; rules: ModerationRules; origins: { words: Origin[]; names: Origin[] } }
	| { ok: false; error: string };

/**
 * The rules the form stands for. `base`, the rules it was made from, keeps what the form does not
 * show: an every-tip rule other than hold, a from-amount rule's outcome other than hold (both can
 * be set through the API).
 */
export function rulesFromForm(form: RulesForm, base: ModerationRules): FromForm {
	const words = entries(form.words);
	const names = entries(form.names);
	for (const [list, e] of [
		['words', words],
		['names', names]
	] as const) {
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
	const everyOther = base.everyTip === 'hold' ? null : base.everyTip;
	return {
		ok: true,
		rules: {
			words: words.rules,
			names: names.rules,
			links: form.links === 'allowed' ? null : form.links,
			minAmount: min === null ? null : { amount: min, outcome: form.minOutcome },
			everyTip: form.holdEvery ? 'hold' : everyOther,
			fromAmount:
				from === null ? null : { amount: from, outcome: base.fromAmount?.outcome ?? 'hold' },
			onReject: form.onReject,
			videos: base.videos
		},
		origins: { words: words.origins, names: names.origins }
	};
}

function where(list: 'words' | 'names', o: Origin | undefined): string {
	const name = list === 'words' ? 'Words' : 'Names';
	return o ? `${name} · ${OUTCOME_LABEL[o.outcome]}, line ${o.line}` : name;
}

const FIELD_LABEL: Record<string, string> = {
	links: 'Links',
	minAmount: 'Minimum amount',
	everyTip: 'Hold every tip',
	fromAmount: 'Hold from',
	onReject: 'On reject'
};

/**
 * The server's refusal (`words.3.text: empty`) in the form's terms (`Words · Hold, line 2:
 * empty`); a message it cannot place is shown as it came.
 */
export function describeRefusal(
	message: string,
	origins: { words: Origin[]; names: Origin[] }
): string {
	const m = /^(words|names)\.(\d+)(?:\.\w+)?: (.*)$/s.exec(message);
	if (m) {
		const list = m[1] as 'words' | 'names';
		return `${where(list, origins[list][Number(m[2])])}: ${m[3]}`;
	}
	const f = /^(\w+)(?:\.\w+)*: (.*)$/s.exec(message);
	const label = f ? FIELD_LABEL[f[1]] : undefined;
	return label ? `${label}: ${f![2]}` : message;
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
