// Thanks in chat when the chat's answer is lost or refused (docs/dock.md, "Thanks in chat"),
// against the real simulator over loopback: a thanks posted whose answer is lost (a bodiless 504,
// an answer after the token endpoint's timeout) names the tipper once and is listed in the dock as
// may not have gone, until Send again posts it once more or It went takes it off; a thanks the chat refuses (429, 409
// bot_unavailable, 502 gateway_unavailable) or that cannot connect goes out once the refusal ends.
import { describe, expect, it } from 'vitest';
import { chatSaid, readyTip, until } from '../fixtures/sim.ts';
import { send } from '../fixtures/token-endpoint.ts';
import { postChat } from '../../src/server/chat/post.ts';
import { keepAliveFetch, UpstreamClient } from '../../src/server/upstream.ts';
import { rig, type Rig } from './control.setup.ts';

const THANKS = {
	enabled: true,
	template: 'Cheers {name} for {amount} tonight',
	burst: 'Cheers {name}'
};

async function readOnStream(r: Rig, name: string, amount = 4) {
	const tip = await readyTip(r.sim, { name, amount });
	expect((await send(r.app, 'POST', `/api/tts/${tip.order_id}/start`)).status).toBe(200);
	expect((await send(r.app, 'POST', `/api/tts/${tip.order_id}/finish`)).status).toBe(200);
}

/** The dock's GET /control/chat once `ready` says so. */
async function chatWhen(r: Rig, ready: (chat: any) => boolean): Promise<any> {
	const end = Date.now() + 15_000;
	for (;;) {
		const chat = (await r.dock('GET', '/control/chat')).body;
		if (ready(chat)) return chat;
		if (Date.now() > end) throw new Error(`the chat never came to that: ${JSON.stringify(chat)}`);
		await new Promise((res) => setTimeout(res, 50));
	}
}

/** The simulator's switches as a test sets them through /_sim. */
async function switches(r: Rig, body: object) {
	const res = await fetch(`${r.sim.origin}/_sim/chat/switches`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});
	expect(res.status).toBe(200);
}

describe('a thanks whose answer is lost', () => {
	it.each([
		['a 504 without a body', { mode: '504' }],
		["an answer after the endpoint's timeout", { mode: 'late', delay_ms: 2500 }]
	])('after %s names the tipper once, may not have gone, until Send again', async (_, lose) => {
		const r = await rig({ options: { timeoutMs: 1000 } });
		expect((await r.dock('PUT', '/control/chat/thanks', { body: THANKS })).status).toBe(200);
		await switches(r, { lose_answers: { ...lose, count: 1 } });
		await readOnStream(r, 'Ashby');
		// Unsure, and nothing waits: the sender has nothing left to try by itself.
		const chat = await chatWhen(r, (c) => c.unsure.length > 0);
		expect(chat.waiting).toBe(0);
		expect(chat.unsure).toEqual([
			expect.objectContaining({
				text: 'Cheers Ashby for $4.00 tonight',
				tips: [{ name: 'Ashby', amount: 4 }]
			})
		]);
		expect(chat.recent[0]).toMatchObject({ outcome: 'unsure', kind: 'thanks', tips: 1 });
		expect(chatSaid(r.sim)).toEqual(['Cheers Ashby for $4.00 tonight']);

		// The streamer looked in the chat and decides to send it again: posted once more, once.
		const again = await Promise.all(
			[1, 2].map(() => r.dock('POST', '/control/chat/resend', { body: { id: chat.unsure[0].id } }))
		);
		expect(again.map((a) => a.status).sort()).toEqual([200, 404]);
		expect(chatSaid(r.sim)).toEqual([
			'Cheers Ashby for $4.00 tonight',
			'Cheers Ashby for $4.00 tonight'
		]);
		const after = (await r.dock('GET', '/control/chat')).body;
		expect(after.unsure).toEqual([]);
		expect(after.recent[0]).toMatchObject({ outcome: 'sent', kind: 'thanks' });
	});

	it("the dock's own Send to chat says may not have gone, and Send again's outcome the same", async () => {
		const r = await rig();
		await switches(r, { lose_answers: { mode: '504', count: 2 } });
		const sent = await r.dock('POST', '/control/chat/send', { body: { message: 'BRB' } });
		expect(sent).toMatchObject({ status: 504, body: { code: 'outcome_unknown' } });
		expect(sent.body.error).toMatch(/may have gone/);
		expect((await r.dock('GET', '/control/chat')).body.recent[0]).toMatchObject({
			text: 'BRB',
			kind: 'dock',
			outcome: 'unsure'
		});

		expect((await r.dock('PUT', '/control/chat/thanks', { body: THANKS })).status).toBe(200);
		await switches(r, { lose_answers: { mode: '504', count: 2 } });
		await readOnStream(r, 'Bree', 3);
		const chat = await chatWhen(r, (c) => c.unsure.length > 0);
		const again = await r.dock('POST', '/control/chat/resend', {
			body: { id: chat.unsure[0].id }
		});
		expect(again).toMatchObject({ status: 504, body: { code: 'outcome_unknown' } });
		// Still listed for the streamer to decide, and posted exactly as often as asked.
		expect((await r.dock('GET', '/control/chat')).body.unsure).toHaveLength(1);
		expect(chatSaid(r.sim)).toEqual([
			'BRB',
			'Cheers Bree for $3.00 tonight',
			'Cheers Bree for $3.00 tonight'
		]);
	});

	it('It went, pressed by two docks at once, takes it off the list as sent once, posting nothing', async () => {
		const r = await rig();
		expect((await r.dock('PUT', '/control/chat/thanks', { body: THANKS })).status).toBe(200);
		await switches(r, { lose_answers: { mode: '504', count: 1 } });
		await readOnStream(r, 'Dara', 6);
		const { id } = (await chatWhen(r, (c) => c.unsure.length > 0)).unsure[0];
		expect(chatSaid(r.sim)).toEqual(['Cheers Dara for $6.00 tonight']);

		// The streamer saw it in chat: two docks say so at once, and Send again from a third.
		const pressed = await Promise.all([
			r.dock('POST', '/control/chat/dismiss', { body: { id } }),
			r.dock('POST', '/control/chat/dismiss', { body: { id } }),
			r.dock('POST', '/control/chat/resend', { body: { id } })
		]);
		expect(pressed.map((p) => p.status).filter((s) => s === 200)).toHaveLength(1);
		for (const p of pressed.filter((p) => p.status !== 200))
			expect(p).toMatchObject({ status: 404, body: { code: 'not_unsure' } });
		const first = pressed.findIndex((p) => p.status === 200);
		const after = (await r.dock('GET', '/control/chat')).body;
		expect(after.unsure).toEqual([]);
		expect(after.waiting).toBe(0);
		if (first === 2) {
			// Send again came first: posted once more, and It went found nothing to take off.
			expect(chatSaid(r.sim)).toHaveLength(2);
			return;
		}
		expect(pressed[first].body).toMatchObject({ outcome: 'done' });
		expect(after.recent[0]).toMatchObject({
			text: 'Cheers Dara for $6.00 tonight',
			kind: 'thanks',
			tips: 1,
			outcome: 'sent',
			code: 'seen'
		});
		// Nothing was posted, and a later Send again of it has nothing to send.
		const later = await r.dock('POST', '/control/chat/resend', { body: { id } });
		expect(later).toMatchObject({ status: 404, body: { code: 'not_unsure' } });
		expect(chatSaid(r.sim)).toEqual(['Cheers Dara for $6.00 tonight']);
	});
});

describe('a thanks the chat refuses', () => {
	it.each([
		['429 (rate limited)', 'rate_limited'],
		['409 bot_unavailable', 'bot_unavailable'],
		['502 gateway_unavailable', 'gateway_unavailable']
	])('goes out once after a %s ends', async (_, code) => {
		const r = await rig();
		expect((await r.dock('PUT', '/control/chat/thanks', { body: THANKS })).status).toBe(200);
		const chat = r.sim.control.chat();
		if (code === 'rate_limited') r.sim.control.failHttp({ status: 429, count: 2, match: '/chat/' });
		if (code === 'bot_unavailable') chat.switches.unavailable = true;
		if (code === 'gateway_unavailable') chat.switches.gatewayDown = true;
		await readOnStream(r, 'Cato');
		await chatWhen(r, (c) => c.problem?.code === code);
		expect(chatSaid(r.sim)).toEqual([]);
		chat.clearSwitches();
		await until(() => chatSaid(r.sim).length > 0, 15_000);
		const status = await chatWhen(r, (c) => c.waiting === 0);
		expect(status.problem).toBeNull();
		expect(status.unsure).toEqual([]);
		expect(chatSaid(r.sim)).toEqual(['Cheers Cato for $4.00 tonight']);
	});

	it('a connection refused is a call never sent; a timeout is not', async () => {
		// A port nothing listens on: refused before anything was sent.
		const fetch = keepAliveFetch();
		const refused = new UpstreamClient(
			() => ({ baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9', apiKey: 'k' }),
			fetch
		);
		expect(await postChat(refused, 'hello', 0)).toMatchObject({
			retry: 'soon',
			problem: { code: 'unreachable' }
		});
		const r = await rig();
		await switches(r, { lose_answers: { mode: 'late', delay_ms: 1500 } });
		const slow = new UpstreamClient(
			() => ({ baseUrl: r.sim.baseUrl, wsUrl: r.sim.wsUrl, apiKey: r.sim.apiKey }),
			fetch,
			500
		);
		expect(await postChat(slow, 'hello', 0)).toMatchObject({ retry: 'unknown' });
		fetch.close();
	});
});
