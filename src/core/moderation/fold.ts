// Folds a text into the letters the word rules compare, keeping where each letter came from.
// Evasions it undoes: case, accents (NFKD, marks stripped), fullwidth and mathematical forms
// (NFKD), look-alikes from other scripts and symbols (Unicode's confusables, confusables.ts: the
// TR39 skeleton of every code point outside ASCII), zero-width characters, digits and symbols
// written for letters, and spacing or punctuation inside a word (the gaps are kept apart from the
// letters, so a rule can match across them and still find where the text's words begin and end).

import { skeleton } from './confusables.ts';

/** What separates a letter from the one before it; a rule may start or end only where it is not NONE. */
export const NONE = 0;
/** A symbol read as a letter (`@`, `$`): a word may start or end on either side of it (`@bob`). */
const DUAL = 1;
/** Punctuation inside a run of non-space characters (`b.a.d`, `b-a-d`). */
const PUNCT = 2;
export const SPACE = 3;

/** Stands for `i` or `l` (`1`, `|`): the matcher lets it equal either. */
export const I_OR_L = '1';

/**
 * Characters that are dropped outright: they change nothing on screen (zero-width spaces and
 * joiners, direction marks, soft hyphens, fillers). The invisible combining ones (the grapheme
 * joiner, variation selectors) go with the other marks.
 */
const INVISIBLE =
	/[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]/u;
const MARK = /\p{M}/gu;
const LETTER = /\p{L}/u;
const WHITESPACE = /[\s\p{Z}]/u;

function isLetter(ch: string): boolean {
	const code = ch.charCodeAt(0);
	if (code < 0x80) return code >= 97 && code <= 122;
	return LETTER.test(ch);
}

function isSpace(ch: string): boolean {
	const code = ch.charCodeAt(0);
	if (code < 0x80) return code === 32 || (code >= 9 && code <= 13);
	return WHITESPACE.test(ch);
}

/** Digits written for letters; only inside a word that has a letter (`455` stays a number). */
const DIGITS: Record<string, string> = {
	'0': 'o',
	'1': I_OR_L,
	'3': 'e',
	'4': 'a',
	'5': 's',
	'7': 't'
};
/** Symbols written for letters, likewise only inside a word that has a letter. */
const SYMBOLS: Record<string, string> = { '@': 'a', $: 's', '€': 'e', '!': 'i', '|': I_OR_L };
/** Symbols that end sentences too: a letter only between two letters (`sh!t`, not `bad!`). */
const INNER_ONLY = new Set(['!', '|']);

interface Char {
	ch: string;
	from: number;
	to: number;
}

/** A text folded to letters, each letter's origin (UTF-16 offsets) and the gaps between them. */
export interface Folded {
	letters: string;
	from: number[];
	to: number[];
	/** gap[k]: what separates letter k-1 from letter k; gap[0] and gap[length] are SPACE. */
	gap: Uint8Array;
}

/**
 * Where Unicode's data does not give the letter a reader sees (looked up after NFKD, so `µ` and `𝛍`
 * are `μ`): Greek `μ` and `ω` have no prototype (and upper-cased, `μ` would read as `M`), and
 * Cyrillic `ӏ`, mapped to `i`, is drawn as a stroke of full height, like `l` or `I`.
 */
const BESIDES_SKELETON: Record<string, string> = { μ: 'u', ω: 'w', ӏ: I_OR_L };

/** Letters, and the digits and symbols read as letters: what a look-alike may fold to. */
function readable(folded: string): boolean {
	for (const c of folded)
		if ((c < 'a' || c > 'z') && DIGITS[c] === undefined && SYMBOLS[c] === undefined) return false;
	return true;
}

/**
 * One code point outside ASCII read through its TR39 skeleton (confusables.ts), then NFKD for the
 * forms the data leaves to normalization (full-width, mathematical, circled) and the skeleton again
 * for what that brings out; marks stripped, lower-cased. A prototype of a vertical stroke (`l`,
 * `I`) may be either letter, and `rn` from one code point is an `m`.
 */
function lookAlike(cp: string): string {
	const mapped = skeleton(skeleton(cp, true).normalize('NFKD'), true).replace(MARK, '');
	// A hook drawn as an apostrophe goes (`ґ` is `r'`, `Ƈ` is `C'`), unless it is all there is.
	const letters = mapped.replace(/'/g, '') || mapped;
	return letters.replace(/[lI]/g, I_OR_L).replace(/rn/g, 'm').toLowerCase();
}

function foldSlow(cp: string): string {
	if (INVISIBLE.test(cp)) return '';
	const own = BESIDES_SKELETON[cp.normalize('NFKD')];
	if (own !== undefined) return own;
	// As written, then in the other case: a Cyrillic or Greek small letter whose prototype is a small
	// capital (`н` is `ʜ`, `т` is `ᴛ`) reads as its capital (`Н` is `H`).
	for (const form of new Set([cp, cp.toLowerCase(), cp.toUpperCase()])) {
		if (form !== cp && [...form].length !== 1) continue; // `ß` is `SS`
		const folded = lookAlike(form);
		if (readable(folded)) return folded;
	}
	return cp.normalize('NFKD').replace(MARK, '').toLowerCase();
}

// Folding a code point outside ASCII (normalize, regular expressions) is the slow part of a check;
// a message repeats few of them, so each is folded once. Bounded: cleared when full.
const folds = new Map<string, string>();

function foldOne(cp: string): string {
	const code = cp.charCodeAt(0);
	if (code < 0x80) return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : cp;
	let folded = folds.get(cp);
	if (folded === undefined) {
		if (folds.size >= 10_000) folds.clear();
		folded = foldSlow(cp);
		folds.set(cp, folded);
	}
	return folded;
}

/** Code points folded one by one; a dropped one (a mark, a zero-width space) widens the one before. */
export function foldChars(text: string): Char[] {
	const out: Char[] = [];
	let at = 0;
	for (const cp of text) {
		const end = at + cp.length;
		const folded = foldOne(cp);
		if (folded === '' && out.length > 0) out[out.length - 1].to = end;
		for (const ch of folded) out.push({ ch, from: at, to: end });
		at = end;
	}
	return out;
}

class Builder {
	letters = '';
	from: number[] = [];
	to: number[] = [];
	gaps: number[] = [];
	pending = NONE;

	push(ch: string, c: Char, dual: boolean): void {
		this.gaps.push(dual ? Math.max(this.pending, DUAL) : this.pending);
		this.pending = dual ? DUAL : NONE;
		this.letters += ch;
		this.from.push(c.from);
		this.to.push(c.to);
	}
}

/** One whitespace-free run of characters: its letters, or gaps where nothing reads as a letter. */
function foldWord(b: Builder, word: Char[]): void {
	let first = -1;
	let last = -1;
	word.forEach((c, i) => {
		if (isLetter(c.ch)) {
			if (first < 0) first = i;
			last = i;
		}
	});
	word.forEach((c, i) => {
		if (isLetter(c.ch)) return b.push(c.ch, c, false);
		const symbol = first >= 0 ? SYMBOLS[c.ch] : undefined;
		const digit = first >= 0 ? DIGITS[c.ch] : undefined;
		if (digit !== undefined) return b.push(digit, c, false);
		if (symbol !== undefined && (!INNER_ONLY.has(c.ch) || (i > first && i < last)))
			return b.push(symbol, c, true);
		b.pending = Math.max(b.pending, PUNCT);
	});
}

export function fold(text: string): Folded {
	const b = new Builder();
	let word: Char[] = [];
	for (const c of foldChars(text)) {
		if (!isSpace(c.ch)) {
			word.push(c);
			continue;
		}
		foldWord(b, word);
		word = [];
		b.pending = SPACE;
	}
	foldWord(b, word);
	const gap = Uint8Array.from([...b.gaps, SPACE]);
	gap[0] = SPACE;
	return { letters: b.letters, from: b.from, to: b.to, gap };
}
