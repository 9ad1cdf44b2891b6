// The streamer's moderation rules and what they decide for one tip (docs/moderation.md). Pure: the
// rules are compiled once (`compileRules`) and every tip is checked against the compiled set;
// decision.ts turns the verdict into the decision the token endpoint stores.
import { fold } from './fold.ts';
import { findLinks } from './links.ts';
import { PatternSet } from './patterns.ts';

/** What happens to a tip a rule matches: shown without its voice, held for a person, or removed. */
type Outcome = 'no_voice' | 'hold' | 'remove';

const SEVERITY: Record<Outcome, number> = { no_voice: 1, hold: 2, remove: 3 };

interface TextRule {
	text: string;
	outcome: Outcome;
}

interface AmountRule {
	amount: number;
	outcome: Outcome;
}

export interface ModerationRules {
	/** Blocked words and phrases, matched in the message. */
	words: TextRule[];
	/** Blocked tipper names, matched against the whole name. */
	names: TextRule[];
	/** A message with a link in it; null when links are allowed. */
	links: Outcome | null;
	/** Tips below this amount are not read aloud as they are (usually `no_voice`). */
	minAmount: AmountRule | null;
	/** Every tip (usually `hold`: a person approves each one). */
	everyTip: Outcome | null;
	/** Tips from this amount up (usually `hold`). */
	fromAmount: AmountRule | null;
}

export interface Tip {
	name: string;
	amount: number;
	message: string;
}

/** One rule that matched, and what in the tip it matched (for the dock to show). */
interface RuleMatch {
	kind: 'word' | 'name' | 'link' | 'min_amount' | 'every_tip' | 'from_amount';
	outcome: Outcome;
	/** The rule's own text: the word, phrase or name as the streamer wrote it. */
	rule?: string;
	/** The tip's text that matched, as the tipper wrote it. */
	matched?: string;
	/** Where `matched` is in the message (UTF-16 offsets, end excluded); absent for the name. */
	start?: number;
	end?: number;
}

interface Verdict {
	/** The strictest outcome of the rules that matched (remove > hold > no_voice), or `read`. */
	outcome: Outcome | 'read';
	/** The rule that decided: the first of the strictest. */
	decidedBy: RuleMatch | null;
	/** Every rule that matched, in the order above (the message's spans to mask among them). */
	matches: RuleMatch[];
}

interface CompiledRules {
	check(tip: Tip): Verdict;
}

function messageMatches(message: string, words: PatternSet<TextRule>, links: Outcome | null) {
	const matches: RuleMatch[] = [];
	const folded = fold(message);
	for (const hit of words.find(folded)) {
		const start = folded.from[hit.start];
		const end = folded.to[hit.end - 1];
		const { text: rule, outcome } = hit.rule;
		matches.push({ kind: 'word', outcome, rule, matched: message.slice(start, end), start, end });
	}
	if (links !== null)
		for (const { start, end } of findLinks(message))
			matches.push({
				kind: 'link',
				outcome: links,
				matched: message.slice(start, end),
				start,
				end
			});
	return matches;
}

function amountMatches(amount: number, rules: ModerationRules): RuleMatch[] {
	const matches: RuleMatch[] = [];
	if (rules.minAmount !== null && amount < rules.minAmount.amount)
		matches.push({ kind: 'min_amount', outcome: rules.minAmount.outcome });
	if (rules.everyTip !== null) matches.push({ kind: 'every_tip', outcome: rules.everyTip });
	if (rules.fromAmount !== null && amount >= rules.fromAmount.amount)
		matches.push({ kind: 'from_amount', outcome: rules.fromAmount.outcome });
	return matches;
}

export function compileRules(rules: ModerationRules): CompiledRules {
	const words = new PatternSet(rules.words, (r) => r.text);
	const names = new PatternSet(rules.names, (r) => r.text);
	return {
		check(tip) {
			const matches = messageMatches(tip.message, words, rules.links);
			const name = names.whole(fold(tip.name));
			if (name !== undefined)
				matches.push({ kind: 'name', outcome: name.outcome, rule: name.text, matched: tip.name });
			matches.push(...amountMatches(tip.amount, rules));
			let decidedBy: RuleMatch | null = null;
			for (const m of matches)
				if (decidedBy === null || SEVERITY[m.outcome] > SEVERITY[decidedBy.outcome]) decidedBy = m;
			return { outcome: decidedBy?.outcome ?? 'read', decidedBy, matches };
		}
	};
}

/**
 * The message with every matched span (words and links) replaced by `•`, one per character shown,
 * spaces kept so the card keeps its shape. Spans are offsets into this same message.
 */
export function maskMessage(message: string, matches: readonly RuleMatch[]): string {
	const spans = matches
		.filter((m) => m.start !== undefined && m.end !== undefined)
		.map((m) => [m.start as number, m.end as number] as const)
		.sort((a, b) => a[0] - b[0]);
	let out = '';
	let at = 0;
	for (const [start, end] of spans) {
		if (end <= at) continue;
		out += message.slice(at, Math.max(at, start));
		for (const cp of message.slice(Math.max(at, start), end))
			out += /[\s\p{Z}]/u.test(cp) ? cp : /\p{M}|[\u200b-\u200f\u2060\ufeff]/u.test(cp) ? '' : '•';
		at = end;
	}
	return out + message.slice(at);
}
