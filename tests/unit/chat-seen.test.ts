// It went (src/server/chat/changes.ts, seenInChat; the dock's button in docs/dock.md, "Thanks in
// chat"): a thanks that may not have gone, seen in chat by the streamer, is done with all its tips
// and listed as sent, seen; nothing else changes, and a second press (or one after Send again took
// it) finds nothing.
import { describe, expect, it } from 'vitest';
import { seenInChat } from '../../src/server/chat/changes.ts';
import { emptyMeta, statusOf, type ChatState } from '../../src/server/chat/ledger.ts';

const NOW = Date.parse('2026-11-28T20:00:00Z');

function state(): ChatState {
	const at = NOW - 60_000;
	const text = 'Thanks Ann and Ben!';
	return {
		...emptyMeta(),
		recent: [{ at: new Date(at).toISOString(), text, kind: 'thanks', tips: 2, outcome: 'unsure' }],
		entries: {
			tip_a: { state: 'unsure', at, name: 'Ann', amount: 2, msg: 'm1', text },
			tip_b: { state: 'unsure', at, name: 'Ben', amount: 3, msg: 'm1', text },
			tip_c: { state: 'unsure', at, name: 'Cy', amount: 1, msg: 'm2', text: 'Thanks Cy!' },
			tip_d: { state: 'owed', at, due: NOW, name: 'Di', amount: 4 }
		}
	};
}

describe('It went', () => {
	it("takes that message's tips out of unsure as done, listed as sent and seen", () => {
		const s = state();
		expect(seenInChat(s, 'm1', NOW)).toBe(true);
		expect(s.entries.tip_a).toMatchObject({ state: 'done', at: NOW });
		expect(s.entries.tip_b).toMatchObject({ state: 'done', at: NOW });
		expect(s.recent[0]).toEqual({
			at: new Date(NOW).toISOString(),
			text: 'Thanks Ann and Ben!',
			kind: 'thanks',
			tips: 2,
			outcome: 'sent',
			code: 'seen'
		});
		// The other thanks stays listed, the owed one owed: nothing is sent or spent.
		expect(statusOf(s).unsure.map((u) => u.id)).toEqual(['m2']);
		expect(s.entries.tip_d.state).toBe('owed');
		expect(s.sends).toEqual([]);
	});

	it('finds nothing the second time, nor once Send again has taken it', () => {
		const s = state();
		seenInChat(s, 'm1', NOW);
		const after = structuredClone(s);
		expect(seenInChat(s, 'm1', NOW + 1)).toBe(false);
		expect(s).toEqual(after);

		const sending = state();
		sending.entries.tip_c = { ...sending.entries.tip_c, state: 'sending' };
		const before = structuredClone(sending);
		expect(seenInChat(sending, 'm2', NOW)).toBe(false);
		expect(sending).toEqual(before);
		expect(seenInChat(sending, 'nope', NOW)).toBe(false);
	});
});
