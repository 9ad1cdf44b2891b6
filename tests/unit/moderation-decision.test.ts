// A tip's decision and the tip as each audience gets it (src/core/moderation/decision.ts): what an
// OBS page may see of a tip the rules caught, and what the dock sees of it.
import { describe, expect, it } from 'vitest';
import { ModerationRules, QueueTip } from '../../src/contract/index.ts';
import { judge, present, settled } from '../../src/core/moderation/decision.ts';
import { queueTip } from './contract-examples.ts';

const rules = (r: object) => ModerationRules.parse(r);
const tip = (more: Partial<QueueTip> = {}): QueueTip => ({
	...QueueTip.parse(queueTip()),
	...more
});

describe('what a page gets of a decided tip', () => {
	it('a no-voice word: no audio, the word masked, no rule text', () => {
		const t = tip({ message: 'you are a B-A-D person' });
		const d = judge(rules({ words: [{ text: 'bad', outcome: 'no_voice' }] }))(t);
		const shown = present(t, d, 'page');
		expect(shown.tts_url).toBeNull();
		expect(shown.message).toBe('you are a ••••• person');
		expect(shown.moderation).toEqual({ outcome: 'no_voice', message: 'masked' });
		expect(JSON.stringify(shown)).not.toMatch(/"bad"/);
	});

	it('a held tip: nothing of its message and no audio on a page; the dock sees it masked', () => {
		const t = tip({ message: 'call me at example.com' });
		const d = judge(rules({ links: 'hold' }))(t);
		expect(present(t, d, 'page')).toMatchObject({ message: null, tts_url: null });
		const docked = present(t, d, 'dock');
		expect(docked.message).toBe('call me at •••••••••••');
		expect(docked.moderation).toMatchObject({ outcome: 'hold', rule: { kind: 'link' } });
	});

	it('a name rule or a rejection hides the message even where it would be shown', () => {
		const t = tip({ name: 'TrollKing', message: 'totally harmless' });
		const byName = judge(rules({ names: [{ text: 'trollking', outcome: 'no_voice' }] }))(t);
		expect(present(t, byName, 'page').message).toBeNull();
		const held = judge(rules({ everyTip: 'hold' }))(t);
		const rejected = settled(held, 'reject', 'no_voice');
		expect(present(t, rejected, 'page')).toMatchObject({
			message: null,
			moderation: { outcome: 'no_voice', message: 'hidden' }
		});
	});

	it('an approved tip is read aloud as written', () => {
		const t = tip({ message: 'hello example.com' });
		const held = judge(rules({ links: 'hold' }))(t);
		const approved = present(t, settled(held, 'approve', 'remove'), 'page');
		expect(approved).toMatchObject({ message: 'hello example.com', tts_url: t.tts_url });
		expect(approved.moderation).toEqual({ outcome: 'read', message: 'shown' });
	});

	it('a minimum amount mutes the voice but shows the message; a tip with no amount is not below it', () => {
		const j = judge(rules({ minAmount: { amount: 2, outcome: 'no_voice' } }));
		const small = tip({ amount: 1, message: 'hi' });
		expect(present(small, j(small), 'page')).toMatchObject({ message: 'hi', tts_url: null });
		expect(j(tip({ amount: null })).outcome).toBe('read');
		// The dock names the rule by its amount.
		expect(present(small, j(small), 'dock').moderation?.rule).toEqual({
			kind: 'min_amount',
			text: '2'
		});
	});

	it('an undecided tip (store unreachable) gives nothing away', () => {
		const shown = present(tip(), null, 'page');
		expect(shown).toMatchObject({ message: null, tts_url: null });
		expect(shown.moderation?.outcome).toBe('pending');
	});
});
