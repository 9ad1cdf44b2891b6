// Tip goals, tipping, POST /tips and the leaderboard over real HTTP (docs/upstream.md: endpoints,
// limits, tipping).
import { describe, expect, it } from 'vitest';
import {
	CreateTipBody,
	LeaderboardBody,
	SuccessBody,
	TipGoalAddBody,
	TippingBody,
	TippingChangeBody,
	TtsQueueBody
} from '../../src/contract/index.ts';
import { expectBody, expectError, nextEvent } from '../fixtures/contract-checks.ts';
import { api } from '../fixtures/sim.ts';
import { sim, rt, MAIN, CHAT, createTip, goal, patchGoal, iso } from './resources.setup.ts';

describe('tip goals', () => {
	it('current counts paid tips inside [starts_at, ends_at] plus added amounts, never unpaid ones', async () => {
		const setup = await patchGoal({
			enabled: true,
			title: 'New camera',
			amount: 100,
			starts_at: iso(-60_000),
			ends_at: iso(60_000)
		});
		expectBody(setup, 200, SuccessBody);
		expect(await goal()).toMatchObject({ title: 'New camera', amount: 100, current: 0 });

		await createTip({ amount: 10, paid: true });
		await createTip({ amount: 7.5, paid: true });
		await createTip({ amount: 50, paid: false });
		await createTip({ amount: 20, paid: false, source: 'kofi' });
		expect((await goal()).current).toBe(17.5);

		const added = expectBody(
			await api(sim, 'POST', `/overlays/${MAIN}/tip-goal/add`, { body: { amount: 2.5 } }),
			200,
			TipGoalAddBody
		);
		expect(added.tip_goal.current).toBe(20);
		expect((await goal()).current).toBe(20);
		const event = await nextEvent(rt, 'overlay.tip_goal.updated', (d) => d.tip_goal.current === 20);
		expect(event.data.overlay_id).toBe(MAIN);

		// A window in the past: the tips fall outside it; added amounts still count.
		expectBody(
			await patchGoal({ starts_at: iso(-7200_000), ends_at: iso(-3600_000) }),
			200,
			SuccessBody
		);
		expect((await goal()).current).toBe(2.5);
		// A window that has not started yet.
		expectBody(await patchGoal({ starts_at: iso(3600_000), ends_at: null }), 200, SuccessBody);
		expect((await goal()).current).toBe(2.5);
		// Clearing both dates (null or empty) counts every paid tip.
		expectBody(await patchGoal({ starts_at: '', ends_at: null }), 200, SuccessBody);
		expect(await goal()).toMatchObject({ starts_at: null, ends_at: null, current: 20 });
	});

	it('a replay of a paid tip is no new money and does not count twice', async () => {
		expectBody(await patchGoal({ starts_at: null, ends_at: null }), 200, SuccessBody);
		const t = await createTip({ amount: 10, paid: true });
		expect((await api(sim, 'POST', `/tts/${t.order_id}/start`)).status).toBe(200);
		expect((await api(sim, 'POST', `/tts/${t.order_id}/finish`)).status).toBe(200);
		expect((await api(sim, 'POST', `/tts/${t.order_id}/replay`)).status).toBe(200);
		expect((await goal()).current).toBe(10);
	});

	it('a PATCH announces overlay.tip_goal.updated with the new goal and reloads the overlay', async () => {
		expectBody(await patchGoal({ title: 'Stream PC', amount: 1500 }, CHAT), 200, SuccessBody);
		const updated = await nextEvent(rt, 'overlay.tip_goal.updated');
		expect(updated.data.overlay_id).toBe(CHAT);
		expect(updated.data.tip_goal).toMatchObject({ title: 'Stream PC', amount: 1500 });
		expect(updated.data.tip_goal).toEqual(await goal(CHAT));
		const reload = await nextEvent(rt, 'overlay.reload');
		expect(reload.data).toEqual({ overlay_id: CHAT });
	});

	it('invalid goal fields answer 400 and change nothing', async () => {
		const before = await goal();
		for (const body of [
			{ amount: -1 },
			{ amount: 1_000_001 },
			{ title: 'x'.repeat(81) },
			{ starts_at: 'yesterday' },
			{ enabled: 'yes' },
			{ starts_at: iso(0), ends_at: iso(-60_000) }
		])
			expectError(await patchGoal(body), 400, 'bad_request');
		expect(await goal()).toEqual(before);
		expectBody(await patchGoal({ amount: 1_000_000, title: 'x'.repeat(80) }), 200, SuccessBody);
		expectError(await patchGoal({ amount: 5 }, 'o_00000000'), 404, 'not_found');
	});
});

describe('tipping', () => {
	it('closing and opening tipping is reported by GET /tipping and announced', async () => {
		expect(expectBody(await api(sim, 'GET', '/tipping'), 200, TippingBody).accepting).toBe(true);

		const closed = expectBody(await api(sim, 'POST', '/tipping/close'), 200, TippingChangeBody);
		expect(closed).toMatchObject({ success: true, accepting: false });
		expect(expectBody(await api(sim, 'GET', '/tipping'), 200, TippingBody).accepting).toBe(false);
		await nextEvent(rt, 'tipping.closed');

		const opened = expectBody(await api(sim, 'POST', '/tipping/open'), 200, TippingChangeBody);
		expect(opened).toMatchObject({ success: true, accepting: true });
		expect(expectBody(await api(sim, 'GET', '/tipping'), 200, TippingBody).accepting).toBe(true);
		await nextEvent(rt, 'tipping.opened');
	});

	it("while closed, a viewer's tip is refused with 409 tipping_closed but an API tip is taken", async () => {
		expect((await api(sim, 'POST', '/tipping/close')).status).toBe(200);
		const viewer = await fetch(`${sim.origin}/_sim/tips`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				name: 'Late viewer',
				amount: 3,
				media_url: `${sim.origin}/demo/bars.webm`
			})
		});
		expect(viewer.status).toBe(409);
		expect(await viewer.json()).toEqual({ error: 'tipping is closed', code: 'tipping_closed' });
		expect(expectBody(await api(sim, 'GET', '/tts/queue'), 200, TtsQueueBody).items).toEqual([]);
		expect(sim.control.log.events('tip.created')).toEqual([]);
		expect(sim.control.log.events('queue.media.added')).toEqual([]);

		// tips:create makes tips the service took no payment for: no checkout, so not stopped.
		const apiTip = await createTip({ name: 'Kofi relay', paid: true, source: 'kofi' });
		const q = expectBody(await api(sim, 'GET', '/tts/queue'), 200, TtsQueueBody);
		expect(q.items.map((t) => t.order_id)).toEqual([apiTip.order_id]);

		expect((await api(sim, 'POST', '/tipping/open')).status).toBe(200);
		const reopened = await fetch(`${sim.origin}/_sim/tips`, { method: 'POST', body: '{}' });
		expect(reopened.status).toBe(201);
	});

	it('closing a closed tipping answers the same and announces nothing more', async () => {
		expect((await api(sim, 'POST', '/tipping/close')).status).toBe(200);
		const again = expectBody(await api(sim, 'POST', '/tipping/close'), 200, TippingChangeBody);
		expect(again).toMatchObject({ success: true, accepting: false });
		await api(sim, 'POST', '/tipping/open');
		await nextEvent(rt, 'tipping.opened');
		const tipping = sim.control.log.events().filter((e) => e.type.startsWith('tipping.'));
		expect(tipping.map((e) => e.type)).toEqual(['tipping.closed', 'tipping.opened']);
	});

	it('POST /tips creates an API tip with 201 that enters the TTS queue and fires tip.created', async () => {
		const res = await api(sim, 'POST', '/tips', {
			body: {
				name: 'Ada',
				amount: 12.5,
				message: 'Great stream!',
				source: 'kofi',
				paid: true,
				external_ref: 'kofi-123'
			}
		});
		const { tip } = expectBody(res, 201, CreateTipBody);
		expect(tip.order_id).toMatch(/^tip_\d+_[A-Za-z0-9]+$/);
		expect(tip).toMatchObject({
			name: 'Ada',
			amount: 12.5,
			message: 'Great stream!',
			tts_url: null,
			is_replay: false,
			is_sub_reward: false,
			source: 'api',
			external_source: 'kofi',
			external_ref: 'kofi-123',
			is_paid: true,
			platform: null,
			platform_user_id: null
		});

		const q = expectBody(await api(sim, 'GET', '/tts/queue'), 200, TtsQueueBody);
		expect(q.items.map((t) => t.order_id)).toEqual([tip.order_id]);
		const created = await nextEvent(rt, 'tip.created');
		expect(created.data.tip).toEqual(tip);
		await nextEvent(rt, 'tip.tts_ready', (d) => d.order_id === tip.order_id);
	});

	it('a tip without paid is a free tip with no external labels', async () => {
		const tip = await createTip({ message: null });
		expect(tip).toMatchObject({
			is_paid: false,
			source: 'api',
			external_source: null,
			external_ref: null,
			message: null
		});
	});

	it('filtered words are masked and flagged', async () => {
		const tip = await createTip({ name: 'badword fan', message: 'this is a scam' });
		expect(tip.name_was_filtered).toBe(true);
		expect(tip.message_was_filtered).toBe(true);
		expect(tip.name).not.toContain('badword');
		expect(tip.message).not.toContain('scam');
	});

	it('POST /tips answers 400 for a missing name or a bad amount', async () => {
		for (const body of [
			{ amount: 5 },
			{ name: 'Ada' },
			{ name: 'Ada', amount: -1 },
			{ name: '', amount: 1 }
		])
			expectError(await api(sim, 'POST', '/tips', { body }), 400, 'bad_request');
		expect(expectBody(await api(sim, 'GET', '/tts/queue'), 200, TtsQueueBody).items).toEqual([]);
	});

	it('the leaderboard ranks supporters by paid total, leaving out free tips', async () => {
		await createTip({ name: 'Ada', amount: 5, paid: true });
		await createTip({ name: 'Bob', amount: 20, paid: true });
		await createTip({ name: 'Ada', amount: 10, paid: true });
		await createTip({ name: 'Cy', amount: 100, paid: false });
		sim.control.createTip({
			name: 'Dee',
			amount: 8,
			paid: true,
			platform: 'twitch',
			platform_user_id: '4242'
		});

		const board = expectBody(await api(sim, 'GET', '/leaderboard'), 200, LeaderboardBody);
		expect(board.supporters).toEqual([
			{ name: 'Bob', platform: null, platform_user_id: null, total: 20, tips: 1 },
			{ name: 'Ada', platform: null, platform_user_id: null, total: 15, tips: 2 },
			{ name: 'Dee', platform: 'twitch', platform_user_id: '4242', total: 8, tips: 1 }
		]);
		const top = expectBody(await api(sim, 'GET', '/leaderboard?limit=1'), 200, LeaderboardBody);
		expect(top.supporters.map((s) => s.name)).toEqual(['Bob']);
		expectError(await api(sim, 'GET', '/leaderboard?limit=0'), 400, 'bad_request');
	});
});
