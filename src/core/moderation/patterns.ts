// Word and phrase rules matched on folded text (fold.ts). Both sides become runs of one letter
// (`baaad` is b, a×3, d) so a stretched letter still matches: a run matches a rule's run of the same
// letter when it is as long, or longer and at least three (`baaad` is `bad`, `good` is not `god`,
// `asss` is `ass`, `as` is not).
//
// A rule matches only from a word's start to a word's end in the folded text, never inside a longer
// word (`class`, `assessment`, `Scunthorpe`). Across punctuation inside a word it always may
// (`b.a.d`, `stupid-ass`); across spaces only when every piece is one or two letters (`b a d`,
// `fu ck`), so two harmless words never add up to a blocked one; a rule of several words (a
// phrase) matches across any spacing (`kill your self`, `killyourself`). A rule ending in `*` matches
// every word that starts with it (`fuck*` matches `fucking`), still only from a word's start.
import { fold, I_OR_L, NONE, SPACE, type Folded } from './fold.ts';

interface Run {
	c: string;
	n: number;
	/** Index of its first letter in the folded letters. */
	at: number;
}

interface Compiled<T> {
	runs: Run[];
	phrase: boolean;
	/** Written with a trailing `*`: matches any word that starts with it (`fuck*`, `fucking`). */
	prefix: boolean;
	rule: T;
}

/** Where a rule matched, in the folded letters: [start, end). */
interface Hit<T> {
	rule: T;
	start: number;
	end: number;
}

/** Runs of one letter; with `gap`, a run also ends where a word or a piece of one does. */
function runsOf(letters: string, gap?: Uint8Array): Run[] {
	const runs: Run[] = [];
	for (let i = 0; i < letters.length; i++) {
		const last = runs[runs.length - 1];
		if (last !== undefined && last.c === letters[i] && (gap === undefined || gap[i] === NONE))
			last.n++;
		else runs.push({ c: letters[i], n: 1, at: i });
	}
	return runs;
}

function sameLetter(a: string, b: string): boolean {
	if (a === b) return true;
	if (a === I_OR_L) return b === 'i' || b === 'l';
	return b === I_OR_L && (a === 'i' || a === 'l');
}

/** The rules' first letters under which a text's run may start one of them. */
function keysFor(c: string): string[] {
	if (c === I_OR_L) return [I_OR_L, 'i', 'l'];
	return c === 'i' || c === 'l' ? [c, I_OR_L] : [c];
}

function longEnough(text: number, rule: number): boolean {
	return text === rule || (text > rule && text >= 3);
}

/** Whether a match spanning spaces is a spelled-out word (pieces of at most two letters). */
function spacedOut(gap: Uint8Array, start: number, end: number): boolean {
	let spaced = false;
	let piece = 0;
	let longest = 0;
	for (let k = start; k < end; k++) {
		if (k > start && gap[k] !== NONE) piece = 0;
		if (k > start && gap[k] === SPACE) spaced = true;
		piece++;
		longest = Math.max(longest, piece);
	}
	return !spaced || longest <= 2;
}

/**
 * The text run after the rule's runs from `m` on, matched from text run `next`, or -1. One letter
 * spread over pieces (`a s s`, `a$$`) or written two ways (`he1l`) is one run, so a rule's run may
 * take several text runs of its letter: each count is tried (`shit tastes` is `shit` then `tastes`).
 */
function matchRuns<T>(runs: Run[], next: number, p: Compiled<T>, m: number): number {
	if (m === p.runs.length) return next;
	const r = p.runs[m];
	if (next >= runs.length || !sameLetter(runs[next].c, r.c)) return -1;
	// A prefix's last run may go on into the rest of the word (`fag*` in `faggot`).
	const open = p.prefix && m === p.runs.length - 1;
	let n = 0;
	for (let k = next; k < runs.length && sameLetter(runs[k].c, r.c); k++) {
		n += runs[k].n;
		if (!(open ? n >= r.n : longEnough(n, r.n))) continue;
		const after = matchRuns(runs, k + 1, p, m + 1);
		if (after >= 0) return after;
	}
	return -1;
}

/** Where the rule matching from text run `s` ends in the letters, or -1. */
function matchAt<T>(text: Folded, runs: Run[], s: number, p: Compiled<T>): number {
	const next = matchRuns(runs, s, p, 0);
	if (next < 0) return -1;
	const last = runs[next - 1];
	let end = last.at + last.n;
	if (p.prefix) while (text.gap[end] === NONE) end++;
	if (text.gap[end] === NONE) return -1;
	if (!p.phrase && !spacedOut(text.gap, runs[s].at, end)) return -1;
	return end;
}

/** Rules compiled once, looked up by their first letter. */
export class PatternSet<T> {
	readonly #byFirst = new Map<string, Compiled<T>[]>();
	readonly #all: Compiled<T>[] = [];

	constructor(rules: readonly T[], text: (rule: T) => string) {
		for (const rule of rules) {
			const folded = fold(text(rule));
			if (folded.letters === '') continue;
			const phrase = folded.gap.slice(1, -1).includes(SPACE);
			const prefix = /\*\s*$/.test(text(rule));
			const compiled = { runs: runsOf(folded.letters), phrase, prefix, rule };
			this.#all.push(compiled);
			const key = compiled.runs[0].c;
			this.#byFirst.set(key, [...(this.#byFirst.get(key) ?? []), compiled]);
		}
	}

	/** Every match in the text, in the order they occur. */
	find(text: Folded): Hit<T>[] {
		const runs = runsOf(text.letters, text.gap);
		const hits: Hit<T>[] = [];
		runs.forEach((run, s) => {
			if (text.gap[run.at] === NONE) return;
			for (const key of keysFor(run.c))
				for (const p of this.#byFirst.get(key) ?? []) {
					const end = matchAt(text, runs, s, p);
					if (end >= 0) hits.push({ rule: p.rule, start: run.at, end });
				}
		});
		return hits;
	}

	/** The first rule equal to the whole text (a tipper's name), spacing and punctuation ignored. */
	whole(text: Folded): T | undefined {
		const runs = runsOf(text.letters);
		const equal = (p: Compiled<T>) =>
			p.runs.length === runs.length &&
			p.runs.every((r, m) => sameLetter(runs[m].c, r.c) && longEnough(runs[m].n, r.n));
		return this.#all.find(equal)?.rule;
	}
}
