// The word rules against evasions that must be caught and harmless text that must pass
// (src/core/moderation), among them every single-letter look-alike of Unicode's confusables. The
// other rules (names, links, amounts, precedence, masking) are in moderation-rules.test.ts.
import prototypes from 'unhomoglyph/data.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { skeleton } from '../../src/core/moderation/confusables.ts';
import { compileRules, type ModerationRules } from '../../src/core/moderation/matcher.ts';

const BLOCKED = [
	'ass',
	'shit',
	'fuck',
	'bitch',
	'cunt',
	'cock',
	'dick',
	'tit',
	'hell',
	'rape',
	'cum',
	'hoe',
	'sex',
	'nazi',
	'spic',
	'homo',
	'butt',
	'crap',
	'arse',
	'wank',
	'die',
	'kill yourself',
	'fag*',
	'penis',
	'whore'
];
const rules: ModerationRules = {
	words: BLOCKED.map((text) => ({ text, outcome: 'no_voice' })),
	names: [],
	links: null,
	minAmount: null,
	everyTip: null,
	fromAmount: null
};
const matcher = compileRules(rules);
const wordsIn = (message: string) =>
	matcher
		.check({ name: 'viewer', amount: 5, message })
		.matches.map((m) => m.rule)
		.sort();

// [message, the rule it must hit]
const EVASIONS: [string, string][] = [
	['SHIT', 'shit'],
	['FuCk this', 'fuck'],
	['s h i t', 'shit'],
	['f u c k you', 'fuck'],
	['fu ck', 'fuck'],
	['s.h.i.t', 'shit'],
	['s-h-i-t', 'shit'],
	['s_h_i_t', 'shit'],
	['f*u*c*k', 'fuck'],
	['b.i.t.c.h please', 'bitch'],
	['shiiiiiit', 'shit'],
	['fuuuuuck', 'fuck'],
	['asssss', 'ass'],
	['sh1t', 'shit'],
	['5h1t', 'shit'],
	['$hit', 'shit'],
	['sh!t happens', 'shit'],
	['@ss', 'ass'],
	['a$$', 'ass'],
	['a55', 'ass'],
	['b1tch', 'bitch'],
	['b!tch', 'bitch'],
	['c0ck', 'cock'],
	['d1ck', 'dick'],
	['r4pe', 'rape'],
	['h3ll yeah', 'hell'],
	['7it', 'tit'],
	['fück', 'fuck'],
	['shít', 'shit'],
	['f\u0301u\u0308ck', 'fuck'],
	['ＦＵＣＫ', 'fuck'],
	['ａｓｓ', 'ass'],
	['𝐬𝐡𝐢𝐭', 'shit'],
	['ⓢⓗⓘⓣ', 'shit'],
	['ѕһіт', 'shit'],
	['аss', 'ass'],
	['сосk', 'cock'],
	['fυck', 'fuck'],
	['ηazi', 'nazi'],
	['s\u200bh\u200bi\u200bt', 'shit'],
	['sh\u00adit', 'shit'],
	['f\u2060uck', 'fuck'],
	['s\u034fhit\ufe0f', 'shit'],
	['you stupid-ass', 'ass'],
	['what the hell.', 'hell'],
	['SHIT!!!', 'shit'],
	['¡shit!', 'shit'],
	['(ass)', 'ass'],
	['"cunt"', 'cunt'],
	['kill yourself', 'kill yourself'],
	['kill your self', 'kill yourself'],
	['KILLYOURSELF', 'kill yourself'],
	['k1ll y0urs3lf', 'kill yourself'],
	['fag', 'fag*'],
	['f4gg0t', 'fag*'],
	['b u t t', 'butt'],
	['w@nk', 'wank'],
	['di3', 'die'],
	['just d i e', 'die'],
	['p e n i s', 'penis'],
	['pe ni s', 'penis'],
	['wh0r3', 'whore'],
	['shit tastes bad', 'shit'],
	['a s s so dumb', 'ass']
];

// Cyrillic letters that NFKD leaves as they are, read by their confusables.txt prototype.
const CYRILLIC: [string, string][] = [
	['гape', 'rape'], // г U+0433 is r
	['whoгe', 'whore'],
	['Ьitch', 'bitch'], // Ь U+042C is b
	['hҽll', 'hell'], // ҽ U+04BD is e
	['ѡank', 'wank'], // ѡ U+0461 is w
	['shӀt', 'shit'], // Ӏ U+04C0 is l or I
	['faԌ', 'fag*'], // Ԍ U+050C is G
	['ҫunt', 'cunt'], // ҫ U+04AB is c
	['whөre', 'whore'], // ө U+04E9 is o
	['ѕеҳ', 'sex'] // ҳ U+04B3 is x
];

// Harmless words and sentences, each holding a blocked word inside a longer word or across words.
const HARMLESS = [
	'class',
	'assessment',
	'passage',
	'bass drop',
	'embarrassed',
	'Massachusetts',
	'Cassandra',
	'assassin',
	'Scunthorpe',
	'Penistone',
	'cockpit',
	'peacock',
	'Hitchcock',
	'Dickens',
	'hello chat',
	'shell',
	'Michelle',
	'grape juice',
	'drapes',
	'therapist',
	'cucumber',
	'document',
	'circumstance',
	'shoe',
	'Essex',
	'Sussex',
	'Ashkenazi',
	'spice',
	'conspicuous',
	'homogeneous',
	'button',
	'butter',
	'scrap',
	'parse',
	'swank',
	'title',
	'constitution',
	'petite',
	'diet',
	'indie game',
	'soldier',
	'skill yourself up',
	'this is hit or miss',
	'as sign of respect',
	'pass it on',
	'good game',
	'I have 455 viewers',
	'gg wp!!!',
	'shiitake mushrooms',
	'Hi @sam, nice stream',
	'5 stars',
	'b4 the raid',
	'l33t h4x0r',
	'the baad guy',
	'hit it',
	'sextant',
	'Middlesex',
	'titan',
	'cocktail hour',
	'cumulative',
	'the pen is mightier than the sword',
	'the one who re-entered',
	'a bit chewy',
	'as shown before',
	'Ich aß eine Brezel',
	'Привет всем, как дела? Отличный стрим сегодня!',
	'Сок, сосна, нет, тест и хех',
	'Дякую за стрім, це було класно',
	'Καλησπέρα σε όλους, ωραίο παιχνίδι!',
	'Σας ευχαριστώ πολύ'
];

/**
 * Every rule of EVASIONS spelled with one letter swapped for one of its look-alikes: each code point
 * outside ASCII whose skeleton is the letter's, small or capital (`m` is `rn`).
 */
function lookAlikeSpellings(): [string, string][] {
	const sources = Object.keys(prototypes).filter((cp) => cp.charCodeAt(0) >= 0x80);
	const spellings: [string, string][] = [];
	for (const rule of new Set(EVASIONS.map(([, r]) => r))) {
		const word = rule.replace('*', '');
		[...word].forEach((letter, i) => {
			const shapes = new Set([skeleton(letter), skeleton(letter.toUpperCase())]);
			for (const cp of sources)
				if (letter !== ' ' && shapes.has(skeleton(cp)))
					spellings.push([word.slice(0, i) + cp + word.slice(i + 1), rule]);
		});
	}
	return spellings;
}

describe('the word rules', () => {
	it.each(EVASIONS)('%j is caught by %j', (message, rule) => {
		expect(wordsIn(message)).toContain(rule);
	});

	it.each(CYRILLIC)('%j, with a Cyrillic look-alike, is caught by %j', (message, rule) => {
		expect(wordsIn(message)).toContain(rule);
	});

	it("catches every rule written with one letter swapped for a look-alike from Unicode's data", () => {
		const spellings = lookAlikeSpellings();
		expect(spellings.length).toBeGreaterThan(4000);
		expect(spellings.filter(([message, rule]) => !wordsIn(message).includes(rule))).toEqual([]);
	});

	it.each(HARMLESS)('%j passes', (message) => {
		expect(wordsIn(message)).toEqual([]);
	});

	it('reports the text as the tipper wrote it, for the dock to show', () => {
		const [m] = matcher.check({ name: 'v', amount: 5, message: 'oh s.h.i.t man' }).matches;
		expect(m).toMatchObject({ kind: 'word', rule: 'shit', matched: 's.h.i.t', start: 3, end: 10 });
	});

	it('a doubled letter alone is not a stretched one ("good" is not "god")', () => {
		const god = compileRules({ ...rules, words: [{ text: 'god', outcome: 'remove' }] });
		const check = (message: string) => god.check({ name: 'v', amount: 1, message }).outcome;
		expect(check('good luck')).toBe('read');
		expect(check('gooood')).toBe('remove');
		expect(check('G O D')).toBe('remove');
	});

	it('a rule ending in * catches the words it starts, never a word that merely contains it', () => {
		expect(wordsIn('faggots everywhere')).toEqual(['fag*']);
		expect(wordsIn('a bunch of fagots')).toEqual(['fag*']);
		expect(wordsIn('a lot of fag ends')).toEqual(['fag*']);
		expect(wordsIn('the flagship store')).toEqual([]);
	});

	it('without the *, inflected forms are not caught (they need their own rule)', () => {
		expect(wordsIn('shitty')).toEqual([]);
		expect(wordsIn('shit shit')).toEqual(['shit', 'shit']);
	});

	it('a rule written with look-alikes or spacing is folded the same way as the messages', () => {
		const odd = compileRules({ ...rules, words: [{ text: ' Ｂ-А-D ', outcome: 'hold' }] });
		expect(odd.check({ name: 'v', amount: 1, message: 'so bad' }).outcome).toBe('hold');
		expect(odd.check({ name: 'v', amount: 1, message: 'badge' }).outcome).toBe('read');
	});

	it('a rule with no letters in it matches nothing', () => {
		const empty = compileRules({ ...rules, words: [{ text: ' !! ', outcome: 'remove' }] });
		expect(empty.check({ name: 'v', amount: 1, message: 'hi !! there' }).outcome).toBe('read');
	});
});
