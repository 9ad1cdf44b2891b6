// The moderation rules other than words (src/core/moderation): links, tipper names, amounts, which
// outcome wins when several rules match, and the masked message a "no voice" card shows.
import { describe, expect, it } from 'vitest';
import {
	compileRules,
	maskMessage,
	type ModerationRules,
	type Tip
} from '../../src/core/moderation/matcher.ts';

const NO_RULES: ModerationRules = {
	words: [],
	names: [],
	links: null,
	minAmount: null,
	everyTip: null,
	fromAmount: null
};
const tip = (message: string, more: Partial<Tip> = {}): Tip => ({
	name: 'viewer',
	amount: 5,
	message,
	...more
});

describe('links', () => {
	const links = compileRules({ ...NO_RULES, links: 'hold' });
	const linksIn = (message: string) => links.check(tip(message)).matches.map((m) => m.matched);

	it.each([
		['go to https://example.com/free now', 'https://example.com/free'],
		['http://10.0.0.1:8080/x', 'http://10.0.0.1:8080/x'],
		['www.example.org', 'www.example.org'],
		['visit example.com', 'example.com'],
		['my-shop.co.uk/deals', 'my-shop.co.uk/deals'],
		['free skins at skins.gg!', 'skins.gg'],
		['EXAMPLE.COM', 'EXAMPLE.COM'],
		['example dot com', 'example dot com'],
		['example(.)com', 'example(.)com'],
		['example [dot] net', 'example [dot] net'],
		['example{.}io', 'example{.}io'],
		['example . com', 'example . com'],
		['ехаmрle.com', 'ехаmрle.com'],
		['example\u200b.com', 'example\u200b.com'],
		['ｅｘａｍｐｌｅ．ｃｏｍ', 'ｅｘａｍｐｌｅ．ｃｏｍ']
	])('%j holds the link %j', (message, link) => {
		expect(linksIn(message)).toEqual([link]);
		expect(links.check(tip(message)).outcome).toBe('hold');
	});

	it.each([
		'great stream, see you tomorrow',
		'I did it. Co-op next time?',
		'node.js and vue.js are fine',
		'e.g. this one',
		'3.5 hours straight',
		'file.txt',
		'dot dot dot',
		'the www is big'
	])('%j has no link', (message) => {
		expect(linksIn(message)).toEqual([]);
	});

	it('links allowed: nothing matches', () => {
		expect(compileRules(NO_RULES).check(tip('example.com')).outcome).toBe('read');
	});
});

describe('tipper names', () => {
	const names = compileRules({
		...NO_RULES,
		names: [
			{ text: 'Troll King', outcome: 'remove' },
			{ text: 'spammer', outcome: 'hold' }
		]
	});
	const outcome = (name: string) => names.check(tip('hi', { name })).outcome;

	it.each(['Troll King', 'trollking', 'TROLL_KING', 'Tr0ll K1ng', 'Тroll King', 'Troll\u200bKing'])(
		'%j is the blocked name "Troll King"',
		(name) => expect(outcome(name)).toBe('remove')
	);

	it.each(['Troll Kingdom', 'Not the Troll King', 'Trolley', 'King'])(
		'%j is another name',
		(name) => expect(outcome(name)).toBe('read')
	);

	it('says which rule and which name matched', () => {
		expect(names.check(tip('hi', { name: 'SPAMMER' })).decidedBy).toEqual({
			kind: 'name',
			outcome: 'hold',
			rule: 'spammer',
			matched: 'SPAMMER'
		});
	});

	it('a name rule does not look in the message', () => {
		expect(names.check(tip('Troll King was here')).outcome).toBe('read');
	});
});

describe('amounts', () => {
	it('below the minimum is not read aloud; the minimum itself is', () => {
		const min = compileRules({ ...NO_RULES, minAmount: { amount: 5, outcome: 'no_voice' } });
		expect(min.check(tip('hi', { amount: 4.99 })).outcome).toBe('no_voice');
		expect(min.check(tip('hi', { amount: 5 })).outcome).toBe('read');
		expect(min.check(tip('hi', { amount: 4.99 })).decidedBy?.kind).toBe('min_amount');
	});

	it('hold from an amount holds that amount and above', () => {
		const from = compileRules({ ...NO_RULES, fromAmount: { amount: 100, outcome: 'hold' } });
		expect(from.check(tip('hi', { amount: 99 })).outcome).toBe('read');
		expect(from.check(tip('hi', { amount: 100 })).outcome).toBe('hold');
		expect(from.check(tip('hi', { amount: 5000 })).decidedBy?.kind).toBe('from_amount');
	});

	it('hold every tip holds even a harmless small one', () => {
		const every = compileRules({ ...NO_RULES, everyTip: 'hold' });
		expect(every.check(tip('hi', { amount: 1 })).outcome).toBe('hold');
	});
});

describe('which outcome wins', () => {
	const all = compileRules({
		words: [
			{ text: 'darn', outcome: 'no_voice' },
			{ text: 'scam', outcome: 'remove' }
		],
		names: [{ text: 'bob', outcome: 'hold' }],
		links: 'hold',
		minAmount: { amount: 2, outcome: 'no_voice' },
		everyTip: null,
		fromAmount: null
	});

	it('no rule: the tip is read', () => {
		expect(all.check(tip('nice stream'))).toEqual({
			outcome: 'read',
			decidedBy: null,
			matches: []
		});
	});

	it('remove beats hold beats no voice, whatever order they match in', () => {
		expect(all.check(tip('darn', { amount: 1 })).outcome).toBe('no_voice');
		expect(all.check(tip('darn example.com')).outcome).toBe('hold');
		expect(all.check(tip('darn', { name: 'Bob' })).outcome).toBe('hold');
		const v = all.check(tip('darn example.com scam', { name: 'Bob', amount: 1 }));
		expect(v.outcome).toBe('remove');
		expect(v.decidedBy).toMatchObject({ kind: 'word', rule: 'scam', matched: 'scam' });
		expect(v.matches.map((m) => m.kind).sort()).toEqual(
			['link', 'min_amount', 'name', 'word', 'word'].sort()
		);
	});

	it('between rules of the same outcome, the first found decides', () => {
		const v = all.check(tip('example.com', { name: 'bob' }));
		expect(v.decidedBy?.kind).toBe('link');
	});
});

describe('the masked message', () => {
	const words = compileRules({
		...NO_RULES,
		words: [{ text: 'shit', outcome: 'no_voice' }],
		links: 'no_voice'
	});
	const masked = (message: string) => maskMessage(message, words.check(tip(message)).matches);

	it('hides each match, keeps the rest and the spaces', () => {
		expect(masked('oh shit man')).toBe('oh •••• man');
		expect(masked('s h i t!')).toBe('• • • •!');
		expect(masked('see example.com, shit')).toBe('see •••••••••••, ••••');
	});

	it('maps matches on folded text back to the characters as written', () => {
		expect(masked('ＳＨＩＴ ok')).toBe('•••• ok');
		expect(masked('🙂 s\u200bh\u0301i\u200bt 🙂')).toBe('🙂 •••• 🙂');
		expect(masked('𝐬𝐡𝐢𝐭')).toBe('••••');
	});

	it('a message without matches is unchanged', () => {
		expect(masked('all good 🙂')).toBe('all good 🙂');
	});

	it('overlapping spans are masked once', () => {
		const m = [
			{ kind: 'word' as const, outcome: 'hold' as const, start: 0, end: 4 },
			{ kind: 'link' as const, outcome: 'hold' as const, start: 2, end: 6 }
		];
		expect(maskMessage('abcdefgh', m)).toBe('••••••gh');
	});
});
