// Moderation through the token endpoint, single mode against the real simulator: the
// rules the dock saves decide every tip a page reads, the decision is made once, a held tip waits
// for a person without blocking the tips after it, and the push channel tells open pages.
import { describe, expect, it } from 'vitest';
import { api, readyTip, until } from '../fixtures/sim.ts';
import { openLive, send } from '../fixtures/token-endpoint.ts';
import { pageCall, rig, withRules, type Rig } from './control.setup.ts';

const page = pageCall;

const queueTip = async (r: Rig, orderId: string, who: 'page' | 'dock' = 'page') => {
	const q =
		who === 'page'
			? await page(r, 'GET', '/api/tts/queue')
			: await r.dock('GET', '/control/api/tts/queue');
	return q.body.items.find((t: { order_id: string }) => t.order_id === orderId);
};

describe('moderation rules decide what a page gets', () => {
	it('with no rules every tip is read aloud as written', async () => {
		const r = await rig();
		const tip = await readyTip(r.sim, { message: 'hello there' });
		const got = await queueTip(r, tip.order_id);
		expect(got.moderation).toEqual({ outcome: 'read', message: 'shown' });
		expect(got.message).toBe('hello there');
		expect(got.tts_url).toBe(tip.tts_url);
	});

	it('a no-voice word: the page gets the message masked, no audio and not the rule', async () => {
		const r = await rig();
		await withRules(r, { words: [{ text: 'badword', outcome: 'no_voice' }] });
		const tip = await readyTip(r.sim, { message: 'you B.A.D.W.O.R.D here' });
		const got = await queueTip(r, tip.order_id);
		expect(got.moderation).toEqual({ outcome: 'no_voice', message: 'masked' });
		expect(got.tts_url).toBeNull();
		expect(got.message).not.toMatch(/B\.A\.D/);
		expect(got.message).toMatch(/^you •.*• here$/);
		expect(JSON.stringify(got)).not.toContain('badword');
		const docked = await queueTip(r, tip.order_id, 'dock');
		expect(docked.moderation.rule).toEqual({ kind: 'word', text: 'badword' });
		// The start's answer is rewritten the same way: the widget plays what it is given.
		const started = await page(r, 'POST', `/api/tts/${tip.order_id}/start`);
		expect(started.status).toBe(200);
		expect(started.body.tip.tts_url).toBeNull();
		expect(started.body.tip.message).toBe(got.message);
	});

	it('a decision stays what it was when the rules change', async () => {
		const r = await rig();
		const tip = await readyTip(r.sim, { message: 'nice stream' });
		expect((await queueTip(r, tip.order_id)).moderation.outcome).toBe('read');
		await withRules(r, { words: [{ text: 'nice', outcome: 'hold' }] });
		expect((await queueTip(r, tip.order_id)).moderation.outcome).toBe('read');
		const next = await readyTip(r.sim, { message: 'nice one' });
		expect((await queueTip(r, next.order_id)).moderation.outcome).toBe('hold');
	});

	it('a removed tip is left out of every page read and deleted upstream', async () => {
		const r = await rig();
		await withRules(r, { links: 'remove' });
		const tip = await readyTip(r.sim, { message: 'free stuff at example.com' });
		expect(await queueTip(r, tip.order_id)).toBeUndefined();
		await until(() => r.sim.control.model.tts.find(tip.order_id) === undefined);
		expect(r.calls).toContain(`DELETE /tts/${tip.order_id}`);
	});

	it('rules that do not parse are refused with the field named, and nothing is saved', async () => {
		const r = await rig();
		const bad = await r.dock('PUT', '/control/moderation', {
			body: { words: [{ text: '  ', outcome: 'hold' }] }
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error).toMatch(/words\.0\.text/);
		expect((await r.dock('GET', '/control/moderation')).body.version).toBe(0);
	});

	it('the overlay key cannot read or change the rules', async () => {
		const r = await rig();
		const res = await send(r.app, 'PUT', '/control/moderation', { body: '{}' });
		expect(res.status).toBe(401);
	});
});

describe('a held tip', () => {
	it('is refused to a page, lets the next tip play, and plays once after Approve', async () => {
		const r = await rig();
		await withRules(r, { fromAmount: { amount: 50, outcome: 'hold' } });
		const held = await readyTip(r.sim, { amount: 100, message: 'big one' });
		const next = await readyTip(r.sim, { amount: 5, message: 'small one' });
		const got = await queueTip(r, held.order_id);
		expect(got.moderation).toEqual({ outcome: 'hold', message: 'hidden' });
		expect(got.message).toBeNull();
		expect((await page(r, 'POST', `/api/tts/${held.order_id}/start`)).body.code).toBe('held');
		expect((await page(r, 'POST', `/api/tts/${next.order_id}/start`)).status).toBe(200);
		await page(r, 'POST', `/api/tts/${next.order_id}/finish`);

		const approved = await r.dock('POST', '/control/moderation/approve', {
			body: { order_id: held.order_id }
		});
		expect(approved.body.outcome).toBe('done');
		const again = await r.dock('POST', '/control/moderation/approve', {
			body: { order_id: held.order_id }
		});
		expect(again.body.outcome).toBe('already');
		const now = await queueTip(r, held.order_id);
		expect(now.moderation).toEqual({ outcome: 'read', message: 'shown' });
		expect(now.message).toBe('big one');
		expect((await page(r, 'POST', `/api/tts/${held.order_id}/start`)).status).toBe(200);
	});

	it('a start of a tip nobody had read yet is decided from its answer and given back', async () => {
		const r = await rig();
		await withRules(r, { everyTip: 'hold' });
		const tip = await readyTip(r.sim);
		const started = await page(r, 'POST', `/api/tts/${tip.order_id}/start`);
		expect(started.status).toBe(409);
		expect(started.body.code).toBe('held');
		expect(r.calls).toContain(`POST /tts/${tip.order_id}/release`);
		const upstream = await api(r.sim, 'GET', '/tts/queue');
		expect(upstream.body.current_order_id).toBeNull();
		expect(upstream.body.items.map((t: { order_id: string }) => t.order_id)).toContain(
			tip.order_id
		);
		// Decided now: the next start is refused without asking the upstream.
		const before = r.calls.length;
		expect((await page(r, 'POST', `/api/tts/${tip.order_id}/start`)).body.code).toBe('held');
		expect(r.calls.length).toBe(before);
	});

	it('Reject applies the rules’ onReject: shown without voice and without its message', async () => {
		const r = await rig();
		await withRules(r, { everyTip: 'hold', onReject: 'no_voice' });
		const tip = await readyTip(r.sim, { message: 'please read me' });
		const rejected = await r.dock('POST', '/control/moderation/reject', {
			body: { order_id: tip.order_id }
		});
		expect(rejected.body).toMatchObject({ outcome: 'done', decision: { outcome: 'no_voice' } });
		const got = await queueTip(r, tip.order_id);
		expect(got.moderation).toEqual({ outcome: 'no_voice', message: 'hidden' });
		expect(got.message).toBeNull();
		const whole = await r.dock('GET', `/control/moderation/message?order_id=${tip.order_id}`);
		expect(whole.body.message).toBe('please read me');
	});

	it('the page’s push channel hears the approval', async () => {
		const r = await rig();
		await withRules(r, { everyTip: 'hold' });
		const tip = await readyTip(r.sim);
		await queueTip(r, tip.order_id);
		const live = await openLive(r.app);
		expect(live.frames[0]).toBe('{"type":"open"}');
		await live.until('"hello"');
		await r.dock('POST', '/control/moderation/approve', { body: { order_id: tip.order_id } });
		await live.until(tip.order_id);
		expect(live.text()).toContain(`{"type":"decision","order_id":"${tip.order_id}"}`);
		await live.close();
	});
});
