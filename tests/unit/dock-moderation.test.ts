// What the dock shows of moderation, from the TTS queue as /control/api gives it (widgets/dock/
// moderation.ts): the Held list, Up next's tips and badges, the rule that held a tip in words, a
// realtime event's tip (the upstream's raw message) never shown before the token endpoint decided
// it, and what a push channel message makes the dock read (dock-live.ts).
import { describe, expect, it } from 'vitest';
import type { QueueTip, TipModeration } from '../../src/contract/index.ts';
import { liveReads } from '../../widgets/dock/dock-live.ts';
import {
	badgeOf,
	fromEvent,
	heldTips,
	ruleLabel,
	undecided,
	upNextTips
} from '../../widgets/dock/moderation.ts';
import { queueTip } from './contract-examples.ts';

const USD = { code: 'USD', symbol: '$' };

function tip(
	n: number,
	moderation?: TipModeration,
	message: string | null = `message ${n}`
): QueueTip {
	const t: QueueTip = {
		...queueTip(),
		order_id: `tip_${n}_aa`,
		name: `Viewer ${n}`,
		message,
		platform: null,
		platform_user_id: null
	};
	return moderation ? { ...t, moderation } : t;
}

const read: TipModeration = { outcome: 'read', message: 'shown', rule: null, by: 'rules' };
const held = (kind: 'word' | 'every_tip' | 'from_amount', text?: string): TipModeration => ({
	outcome: 'hold',
	message: 'masked',
	rule: { kind, text },
	by: 'rules'
});

/** A queue snapshot as the dock reads it: read, held, without voice, removed, undecided. */
const QUEUE: QueueTip[] = [
	tip(1, read),
	tip(2, held('word', 'scam'), 'a •••• for you'),
	tip(3, { outcome: 'no_voice', message: 'masked', rule: { kind: 'word', text: 'rude' } }, '••••'),
	tip(4, { outcome: 'remove', message: 'hidden', rule: { kind: 'name', text: 'Troll' } }, null),
	tip(5, held('every_tip')),
	tip(6, { outcome: 'pending', message: 'hidden' }, null)
];
const ids = (tips: QueueTip[] | null) => tips?.map((t) => t.order_id);

describe('the held tips', () => {
	it('are the queue tips a rule holds, in queue order, with the masked message the server gave', () => {
		const list = heldTips(QUEUE);
		expect(ids(list)).toEqual(['tip_2_aa', 'tip_5_aa']);
		expect(list[0].message).toBe('a •••• for you');
		expect(heldTips(null)).toEqual([]);
	});

	it('say which rule held them, as the streamer wrote it', () => {
		expect(ruleLabel(QUEUE[1].moderation, USD)).toBe('word: scam');
		expect(ruleLabel(QUEUE[4].moderation, USD)).toBe('every tip');
		expect(ruleLabel(held('from_amount', '50'), USD)).toBe('from $50.00');
		expect(
			ruleLabel({ outcome: 'no_voice', message: 'hidden', rule: null, by: 'rejected' }, USD)
		).toBe('rejected in the dock');
	});
});

describe('Up next', () => {
	it('lists every queued tip but the removed ones, each with its badge', () => {
		const next = upNextTips(QUEUE);
		expect(ids(next)).toEqual(['tip_1_aa', 'tip_2_aa', 'tip_3_aa', 'tip_5_aa', 'tip_6_aa']);
		expect(next!.map(badgeOf)).toEqual([null, 'held', 'no voice', 'held', 'checking…']);
		expect(upNextTips(null)).toBeNull();
	});

	it('knows when tips wait for a decision (the dock then reads again)', () => {
		expect(undecided(QUEUE)).toBe(true);
		expect(undecided(QUEUE.slice(0, 5))).toBe(false);
	});
});

describe("a realtime event's tip", () => {
	it('takes the decision and masked message the dock read for it, never the raw message', () => {
		const known = QUEUE[2];
		const raw = tip(3, undefined, 'you are rude');
		const { tip: shown, decided } = fromEvent(raw, known);
		expect(decided).toBe(true);
		expect(shown.message).toBe('••••');
		expect(shown.moderation?.outcome).toBe('no_voice');
		expect(shown.tts_url).toBeNull();
	});

	it('is undecided, its message withheld, when the dock has no decision for it', () => {
		const raw = {
			...tip(7, undefined, 'buy followers at scam.example'),
			tts_url: 'https://a/b.mp3'
		};
		for (const known of [undefined, QUEUE[5]]) {
			const { tip: shown, decided } = fromEvent(raw, known);
			expect(decided).toBe(false);
			expect(shown).toMatchObject({
				message: null,
				tts_url: null,
				moderation: { outcome: 'pending' }
			});
		}
	});

	it('ignores a decision the event itself carries: events come from the upstream, not from us', () => {
		const forged = tip(8, read, 'raw text');
		expect(fromEvent(forged, undefined)).toMatchObject({ decided: false, tip: { message: null } });
	});
});

describe('the push channel', () => {
	it('makes the dock read the queue for a decision, the rules for rules, both after a (re)connect', () => {
		expect(liveReads({ type: 'decision', order_id: 'tip_2_aa' })).toEqual({
			snapshots: ['tts'],
			rules: false
		});
		expect(liveReads({ type: 'rules', version: 3 })).toEqual({ snapshots: [], rules: true });
		for (const type of ['hello', 'resync'] as const)
			expect(liveReads({ type })).toEqual({ snapshots: ['tts', 'ttsHistory'], rules: true });
	});

	it('reads nothing for a save of the stored settings (the widgets look, the dock does not change)', () => {
		expect(liveReads({ type: 'settings', target: 'tts', version: 4 })).toEqual({
			snapshots: [],
			rules: false
		});
	});
});
