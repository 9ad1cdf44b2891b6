// Unicode's look-alike data as the word rules read it (src/core/moderation/confusables.ts, fold.ts):
// the TR39 skeleton against entries of confusables.txt, and what single look-alikes fold to.
import { describe, expect, it } from 'vitest';
import { skeleton } from '../../src/core/moderation/confusables.ts';
import { fold, I_OR_L } from '../../src/core/moderation/fold.ts';

describe('the TR39 skeleton', () => {
	// [text, its skeleton]: entries of confusables.txt (source ; prototype).
	it.each([
		['\u0430', 'a'], // CYRILLIC SMALL LETTER A
		['\u0433', 'r'], // CYRILLIC SMALL LETTER GHE
		['\u0405', 'S'], // CYRILLIC CAPITAL LETTER DZE
		['\u0391', 'A'], // GREEK CAPITAL LETTER ALPHA
		['\u03bd', 'v'], // GREEK SMALL LETTER NU
		['\u043d', '\u029c'], // CYRILLIC SMALL LETTER EN: LATIN LETTER SMALL CAPITAL H
		['\u017f', 'f'], // LATIN SMALL LETTER LONG S
		['\u0431', '6'], // CYRILLIC SMALL LETTER BE
		['\u{1d41a}', 'a'], // MATHEMATICAL BOLD SMALL A
		['\u24db', '\u24be'], // CIRCLED LATIN SMALL LETTER L: CIRCLED LATIN CAPITAL LETTER I
		['m', 'rn'],
		['0', 'O'],
		['1', 'l'],
		['I', 'l'],
		['|', 'l']
	])('%j is %j', (text, prototype) => {
		expect(skeleton(text)).toBe(prototype);
	});

	it('maps a text code point by code point, decomposed before and after', () => {
		expect(skeleton('\u{1d52d}\u{1d4b6}\u1eff\u{1d561}\u{1d552}\u2113')).toBe('paypal');
		expect(skeleton('\u00f8')).toBe('o\u0338'); // ø: o and a combining stroke
		expect(skeleton('modern')).toBe('rnodern');
	});

	it('leaves ASCII as it is when asked to', () => {
		expect(skeleton('mI01| \u0455\u0440am', true)).toBe('mI01| spam');
	});
});

describe('a look-alike folded to the letters the rules compare', () => {
	const letters = (text: string) => fold(text).letters;

	it.each([
		['\u0455\u04bb\u0456\u0442', 'shit'], // ѕһіт
		['\u0433ape', 'rape'], // г
		['\u043d\u0435\u0442', 'het'], // нет: a small capital prototype reads as its capital
		['\u0422\u0415\u0425', 'tex'], // ТЕХ
		['\u03ba\u03b1\u03c4', 'kat'], // κατ
		['cu\u0271', 'cum'], // ɱ is `rn`, one code point: m
		['cu\u{1d426}', 'cum'], // 𝐦
		['\u00f8\u0111\u0127\u0167\u0180', 'odhtb'], // stroke letters: letter and a stroke
		['\u017fuck', 'fuck'], // ſ is drawn as f
		['\u00b5\u03bc\u03c9', 'uuw'], // µ μ ω, which the skeleton leaves as they are
		['\u0431\u0411', 'bb'], // б: its prototype `6` is no letter, its capital's is `b`
		['\u0491\u0187', 'rc'], // ґ Ƈ: `r'` and `C'`, the hook drawn as an apostrophe dropped
		['stra\u00dfe', 'stra\u00dfe'] // ß is not SS
	])('%j folds to %j', (text, folded) => {
		expect(letters(text)).toBe(folded);
	});

	it('reads a stroke (l, I, 1, |) as either letter', () => {
		for (const stroke of ['\u04c0', '\u04cf', '\u0406', '\u0399', '\u2223', '\u0142', '\u24db'])
			expect(letters(`a${stroke}b`)).toBe(`a${I_OR_L}b`);
	});

	it('leaves ASCII letters and words of other scripts alone', () => {
		expect(letters('modern Il')).toBe('modernil');
		expect(letters('\u043f\u0440\u0438\u0432\u0435\u0442')).toBe('\u043fp\u0438bet'); // привет
		expect(letters('\u6700\u9ad8')).toBe('\u6700\u9ad8');
	});

	it('keeps where each letter came from, in UTF-16 offsets', () => {
		const folded = fold('x\u{1d426}y \u00e6');
		expect(folded.letters).toBe('xmyae');
		expect(folded.from).toEqual([0, 1, 3, 5, 5]);
		expect(folded.to).toEqual([1, 3, 4, 6, 6]);
	});
});
