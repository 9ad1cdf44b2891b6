// The thanks sender (src/server/chat/thanker.ts) on the clock: a fake upstream answers the chat and
// the clock is moved by hand. Tips read faster than the chat's budget allows are thanked in fewer
// messages, never more than 15 in any 30 s, each tip named once; a 429 or a bot switched off is
// tried again and shown; a 200 is a message posted, whatever its body; a thanks too late for the
// stream is given up; a post whose answer is lost is unsure, never posted again but by Send again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { statusOf } from '../../src/server/chat/ledger.ts';
import { Thanker } from '../../src/server/chat/thanker.ts';
import { chatFile, type ChatStore } from '../../src/server/chat/store.ts';
import type { UpstreamClient } from '../../src/server/upstream.ts';
import { moderationFile } from '../../src/server/moderation/store.ts';

interface Sent {
	at: number;
	text: string;
}

/** The upstream: /me (USD), and the chat answering `answer()` (200 by default). */
function upstream(answer: () => Response = () => Response.json({ success: true })) {
	const sent: Sent[] = [];
	/** Every post, whatever its answer (a lost answer's message went out too). */
	const posted: string[] = [];
	const client = {
		call: async (_method: string, path: string, body?: string) => {
			if (path === '/me')
				return Response.json({ tenant: { currency: 'USD', currency_symbol: '$' } });
			posted.push(JSON.parse(body!).message);
			const res = answer();
			if (res.ok) sent.push({ at: Date.now(), text: JSON.parse(body!).message });
			return res;
		}
	} as unknown as UpstreamClient;
	return { client, sent, posted };
}

async function rig(answer?: () => Response) {
	const up = upstream(answer);
	const moderation = moderationFile(null);
	const thanker = new Thanker({
		store: chatFile(null),
		moderation,
		upstreamOf: () => up.client,
		soleWriter: true
	});
	await thanker.saveSettings('s', {
		enabled: true,
		template: 'Thanks {name}!',
		burst: 'Thanks {name}!'
	});
	let n = 0;
	/** A tip decided `read` and finished now. */
	const read = async (name = `T${++n}`) => {
		const orderId = `tip_${n}_x`;
		await moderation.decide('s', [
			{
				orderId,
				outcome: 'read',
				rule: null,
				spans: [],
				by: 'rules',
				decidedAt: new Date().toISOString()
			}
		]);
		await thanker.beforeFinish('s', orderId);
		await thanker.afterFinish('s', orderId, {
			success: true,
			tip: { order_id: orderId, name, amount: 1, is_replay: false, is_sub_reward: false }
		});
		return name;
	};
	return {
		thanker,
		moderation,
		read,
		up,
		sent: up.sent,
		status: async () => await thanker.store.read('s')
	};
}

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-28T20:00:00Z') }));
afterEach(() => vi.useRealTimers());

describe('the thanks sender', () => {
	it('keeps under 15 messages in any 30 s, and names every tip once', async () => {
		const r = await rig();
		const names: string[] = [];
		for (let i = 0; i < 40; i++) {
			names.push(await r.read());
			await vi.advanceTimersByTimeAsync(1600);
		}
		await vi.advanceTimersByTimeAsync(60_000);
		for (const m of r.sent)
			expect(r.sent.filter((o) => o.at > m.at - 30_000 && o.at <= m.at).length).toBeLessThanOrEqual(
				15
			);
		const named = r.sent.flatMap((m) => m.text.replace(/^Thanks |!$/g, '').split(/, | and /));
		expect(named.sort()).toEqual(names.sort());
		expect(r.sent.length).toBeLessThan(names.length);
		r.thanker.close();
	});

	it('tries a refused message again: after the 429, and once the bot is back', async () => {
		let answers = [
			() =>
				new Response(JSON.stringify({ error: 'slow down' }), {
					status: 429,
					headers: { 'retry-after': '3' }
				}),
			() => Response.json({ error: 'off', code: 'bot_disabled' }, { status: 409 })
		];
		const r = await rig(() => (answers.shift() ?? (() => Response.json({ success: true })))());
		await r.read('Ada');
		await vi.advanceTimersByTimeAsync(2000);
		expect((await r.status()).problem?.code).toBe('rate_limited');
		await vi.advanceTimersByTimeAsync(5000);
		expect((await r.status()).problem?.code).toBe('bot_disabled');
		expect(r.sent).toEqual([]);
		await vi.advanceTimersByTimeAsync(31_000);
		expect(r.sent.map((m) => m.text)).toEqual(['Thanks Ada!']);
		const s = await r.status();
		expect(s.problem).toBeNull();
		expect(s.recent[0]).toMatchObject({ outcome: 'sent', tips: 1 });
		answers = [];
		r.thanker.close();
	});

	it('posts a thanks once when the chat answers 200 without a JSON body', async () => {
		const r = await rig(() => new Response('ok', { status: 200 }));
		await r.read('Ada');
		await vi.advanceTimersByTimeAsync(60_000);
		expect(r.sent.map((m) => m.text)).toEqual(['Thanks Ada!']);
		expect((await r.status()).recent[0]).toMatchObject({ outcome: 'sent', tips: 1 });
		r.thanker.close();
	});

	it('gives up a thanks still refused ten minutes after its tip was read', async () => {
		const r = await rig(() =>
			Response.json({ error: 'off', code: 'bot_disabled' }, { status: 409 })
		);
		await r.read('Late');
		await vi.advanceTimersByTimeAsync(11 * 60_000);
		const s = await r.thanker.store.read('s', ['tip_0_x']);
		expect(Object.values(s.entries).map((e) => e.state)).toEqual(['done']);
		expect(s.recent[0]).toMatchObject({ text: 'Late', outcome: 'failed', code: 'too_late' });
		expect(r.sent).toEqual([]);
		r.thanker.close();
	});

	it('sends nothing once thanks are switched off', async () => {
		const r = await rig();
		await r.read('Ada');
		await r.thanker.saveSettings('s', {
			enabled: false,
			template: 'Thanks {name}!',
			burst: 'Thanks {name}!'
		});
		await vi.advanceTimersByTimeAsync(5000);
		expect(r.sent).toEqual([]);
		r.thanker.close();
	});

	it('lists a thanks whose answer was lost as unsure, and posts it again only on Send again', async () => {
		let lose = true;
		const r = await rig(() =>
			lose ? new Response(null, { status: 504 }) : Response.json({ success: true })
		);
		await r.read('Ada');
		await vi.advanceTimersByTimeAsync(2000);
		expect(r.up.posted).toEqual(['Thanks Ada!']);
		await vi.advanceTimersByTimeAsync(11 * 60_000);
		expect(r.up.posted).toEqual(['Thanks Ada!']);
		const status = statusOf(await r.status());
		expect(status.waiting).toBe(0);
		expect(status.unsure).toEqual([
			expect.objectContaining({ text: 'Thanks Ada!', tips: [{ name: 'Ada', amount: 1 }] })
		]);
		expect(status.recent[0]).toMatchObject({ outcome: 'unsure', tips: 1 });
		lose = false;
		const id = status.unsure[0].id;
		expect(await r.thanker.resend('s', r.up.client, id)).toEqual({ ok: true });
		// A second press (another dock) finds nothing left to send.
		expect(await r.thanker.resend('s', r.up.client, id)).toBeNull();
		expect(r.up.posted).toEqual(['Thanks Ada!', 'Thanks Ada!']);
		expect(statusOf(await r.status()).unsure).toEqual([]);
		r.thanker.close();
	});

	it('lists a thanks a stopped sender left mid-post as unsure, and never posts it by itself', async () => {
		const store = chatFile(null);
		const at = Date.now() - 1000;
		await store.update('s', (s) => {
			s.thanks = { enabled: true, template: 'Thanks {name}!', burst: 'Thanks {name}!' };
			s.entries.tip_a = { state: 'sending', at, readAt: at, name: 'Ann', amount: 2, msg: 'm1' };
			s.entries.tip_b = { state: 'sending', at, readAt: at, name: 'Ben', amount: 3, msg: 'm1' };
		});
		const up = upstream();
		const thanker = new Thanker({
			store,
			moderation: moderationFile(null),
			upstreamOf: () => up.client,
			soleWriter: true
		});
		thanker.start();
		await vi.advanceTimersByTimeAsync(5 * 60_000);
		const status = statusOf(await store.read('s'));
		expect(status.unsure).toEqual([
			expect.objectContaining({
				id: 'm1',
				text: 'Thanks Ann and Ben!',
				tips: [
					{ name: 'Ann', amount: 2 },
					{ name: 'Ben', amount: 3 }
				]
			})
		]);
		expect(status.recent[0]).toMatchObject({ outcome: 'unsure', code: 'interrupted', tips: 2 });
		expect(up.posted).toEqual([]);
		thanker.close();
	});

	it('waits for a decision stored after the finish: thanked once it is stored read', async () => {
		const r = await rig();
		const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
		const decision = (orderId: string, outcome: 'read' | 'hold') => ({
			orderId,
			outcome,
			rule: null,
			spans: [],
			by: 'rules' as const,
			decidedAt: new Date().toISOString()
		});
		const moderation = r.moderation;
		for (const [orderId, name] of [
			['tip_late', 'Late'],
			['tip_held', 'Held']
		]) {
			await r.thanker.beforeFinish('s', orderId);
			await r.thanker.afterFinish('s', orderId, {
				success: true,
				tip: { order_id: orderId, name, amount: 3, is_replay: false, is_sub_reward: false }
			});
		}
		await vi.advanceTimersByTimeAsync(5_000);
		expect(r.up.posted).toEqual([]);
		// The decisions' own writes settle after a store outage, after the finishes' answers.
		await moderation.decide('s', [decision('tip_late', 'read'), decision('tip_held', 'hold')]);
		await vi.advanceTimersByTimeAsync(60_000);
		expect(r.up.posted).toEqual(['Thanks Late!']);
		errors.mockRestore();
		r.thanker.close();
	});

	it('thanks a tip once whose note and settling the store did not take while it was away', async () => {
		const inner = chatFile(null);
		let away = false;
		const refuse = () => Promise.reject(new Error('timeout exceeded when trying to connect'));
		const store: ChatStore = {
			push: inner.push,
			read: (streamer, ids) => (away ? refuse() : inner.read(streamer, ids)),
			update: (streamer, change, ids) => (away ? refuse() : inner.update(streamer, change, ids)),
			busy: () => (away ? refuse() : inner.busy())
		};
		const up = upstream();
		const moderation = moderationFile(null);
		const thanker = new Thanker({
			store,
			moderation,
			upstreamOf: () => up.client,
			soleWriter: true
		});
		await thanker.saveSettings('s', {
			enabled: true,
			template: 'Thanks {name}!',
			burst: 'Thanks {name}!'
		});
		await moderation.decide('s', [
			{
				orderId: 'tip_z',
				outcome: 'read',
				rule: null,
				spans: [],
				by: 'rules',
				decidedAt: new Date().toISOString()
			}
		]);
		const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
		away = true;
		await thanker.beforeFinish('s', 'tip_z');
		const answer = { success: true, tip: { order_id: 'tip_z', name: 'Zoe', amount: 5 } };
		await thanker.afterFinish('s', 'tip_z', answer);
		await vi.advanceTimersByTimeAsync(20_000);
		expect(up.posted).toEqual([]);
		away = false;
		await vi.advanceTimersByTimeAsync(60_000);
		expect(up.sent.map((m) => m.text)).toEqual(['Thanks Zoe!']);
		// A second finish answer for the same tip (another copy's) thanks nobody again.
		await thanker.afterFinish('s', 'tip_z', answer);
		await vi.advanceTimersByTimeAsync(60_000);
		expect(up.posted).toEqual(['Thanks Zoe!']);
		errors.mockRestore();
		thanker.close();
	});
});
