// Counters, overlays, tip goals, tipping, POST /tips and the leaderboard over real HTTP
// (service-api.md, Endpoints and Limits; CONTRACT.md, Records, Counters, Overlays and Tipping).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
	CounterBody,
	CountersBody,
	CreateTipBody,
	LeaderboardBody,
	OverlayBody,
	OverlaysBody,
	SuccessBody,
	TipGoalAddBody,
	TipGoalBody,
	TippingBody,
	TippingChangeBody,
	TtsQueueBody,
	WIDGET_TYPES,
	type QueueTip
} from '../../src/contract/index.ts';
import { expectBody, expectError, nextEvent, settle } from '../fixtures/contract-checks.ts';
import { api, RealtimeClient, withSim, type Sim } from '../fixtures/sim.ts';

let sim: Sim;
let rt: RealtimeClient;

beforeEach(async () => {
	sim = await withSim();
	rt = await RealtimeClient.connect(sim);
});
afterEach(async () => {
	rt.close();
	await sim.close();
});

const MAIN = 'o_1a2b3c4d';
const CHAT = 'o_5e6f7a8b';

async function createTip(body: Record<string, unknown>): Promise<QueueTip> {
	const res = await api(sim, 'POST', '/tips', { body: { name: 'Ada', amount: 5, ...body } });
	return expectBody(res, 201, CreateTipBody).tip;
}

async function goal(overlayId = MAIN) {
	return expectBody(await api(sim, 'GET', `/overlays/${overlayId}/tip-goal`), 200, TipGoalBody)
		.tip_goal;
}

async function patchGoal(body: Record<string, unknown>, overlayId = MAIN) {
	return api(sim, 'PATCH', `/overlays/${overlayId}/tip-goal`, { body });
}

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('counters', () => {
	it('a new counter is created with 201, listed, readable and announced with previous null', async () => {
		const res = await api(sim, 'POST', '/counters', { body: { name: 'boss-kills_2', value: 7 } });
		const { counter } = expectBody(res, 201, CounterBody);
		expect(counter).toMatchObject({ name: 'boss-kills_2', value: 7 });

		const list = expectBody(await api(sim, 'GET', '/counters'), 200, CountersBody);
		expect(list.counters.map((c) => c.name)).toContain('boss-kills_2');
		const read = expectBody(await api(sim, 'GET', '/counters/boss-kills_2'), 200, CounterBody);
		expect(read.counter).toEqual(counter);

		const event = await nextEvent(rt, 'counter.updated', (d) => d.counter.name === 'boss-kills_2');
		expect(event.data).toEqual({ counter, previous: null });
	});

	it('a counter without a value starts at 0', async () => {
		const res = await api(sim, 'POST', '/counters', { body: { name: 'fresh' } });
		expect(expectBody(res, 201, CounterBody).counter.value).toBe(0);
	});

	it('creating a name that exists answers 409 counter_exists and keeps the value', async () => {
		const before = expectBody(await api(sim, 'GET', '/counters/deaths'), 200, CounterBody).counter;
		const res = await api(sim, 'POST', '/counters', { body: { name: 'deaths', value: 99 } });
		expectError(res, 409, 'counter_exists');
		const after = expectBody(await api(sim, 'GET', '/counters/deaths'), 200, CounterBody).counter;
		expect(after).toEqual(before);
	});

	it('names that are not a lowercase slug of at most 64 characters answer 400', async () => {
		for (const name of ['Deaths', 'two words', 'emoji✨', '', 'a'.repeat(65), 'dots.here']) {
			const res = await api(sim, 'POST', '/counters', { body: { name } });
			expectError(res, 400, 'bad_request');
		}
		const longest = 'a'.repeat(64);
		expectBody(await api(sim, 'POST', '/counters', { body: { name: longest } }), 201, CounterBody);
	});

	it('a streamer can have at most 100 counters', async () => {
		const existing = expectBody(await api(sim, 'GET', '/counters'), 200, CountersBody).counters;
		for (let i = existing.length; i < 100; i++) {
			const res = await api(sim, 'POST', '/counters', { body: { name: `c${i}` } });
			expect(res.status).toBe(201);
		}
		const list = expectBody(await api(sim, 'GET', '/counters'), 200, CountersBody);
		expect(list.counters).toHaveLength(100);
		const res = await api(sim, 'POST', '/counters', { body: { name: 'one-too-many' } });
		expectError(res, 400, 'bad_request');
		expectError(await api(sim, 'GET', '/counters/one-too-many'), 404, 'not_found');
	});

	it('setting a value returns the counter and announces the previous value', async () => {
		const res = await api(sim, 'PUT', '/counters/deaths', { body: { value: 42 } });
		const { counter } = expectBody(res, 200, CounterBody);
		expect(counter.value).toBe(42);
		const event = await nextEvent(rt, 'counter.updated', (d) => d.counter.name === 'deaths');
		expect(event.data).toEqual({ counter, previous: 3 });
		expectError(
			await api(sim, 'PUT', '/counters/deaths', { body: { value: 1.5 } }),
			400,
			'bad_request'
		);
		expectError(await api(sim, 'PUT', '/counters/deaths', { body: {} }), 400, 'bad_request');
	});

	it('increment adds 1 by default and may go down with a negative step', async () => {
		const up = expectBody(
			await api(sim, 'POST', '/counters/wins/increment', { body: {} }),
			200,
			CounterBody
		);
		expect(up.counter.value).toBe(2);
		const noBody = expectBody(await api(sim, 'POST', '/counters/wins/increment'), 200, CounterBody);
		expect(noBody.counter.value).toBe(3);
		const down = expectBody(
			await api(sim, 'POST', '/counters/wins/increment', { body: { by: -5 } }),
			200,
			CounterBody
		);
		expect(down.counter.value).toBe(-2);

		await nextEvent(rt, 'counter.updated', (d) => d.counter.value === -2);
		const previous = rt
			.events('counter.updated')
			.filter((e) => e.data.counter.name === 'wins')
			.map((e) => [e.data.previous, e.data.counter.value]);
		expect(previous).toEqual([
			[1, 2],
			[2, 3],
			[3, -2]
		]);
	});

	it('deleting a counter answers success, announces counter.deleted, and it is gone', async () => {
		expectBody(await api(sim, 'DELETE', '/counters/hype'), 200, SuccessBody);
		const event = await nextEvent(rt, 'counter.deleted');
		expect(event.data).toEqual({ name: 'hype' });
		expectError(await api(sim, 'GET', '/counters/hype'), 404, 'not_found');
		const list = expectBody(await api(sim, 'GET', '/counters'), 200, CountersBody);
		expect(list.counters.map((c) => c.name)).not.toContain('hype');
	});

	it('an unknown counter answers 404 to read, set, increment and delete', async () => {
		expectError(await api(sim, 'GET', '/counters/nope'), 404, 'not_found');
		expectError(await api(sim, 'PUT', '/counters/nope', { body: { value: 1 } }), 404, 'not_found');
		expectError(await api(sim, 'POST', '/counters/nope/increment'), 404, 'not_found');
		expectError(await api(sim, 'DELETE', '/counters/nope'), 404, 'not_found');
		await settle();
		expect(sim.control.log.events('counter.updated')).toHaveLength(0);
	});
});

describe('overlays', () => {
	it('the demo account has overlays of different resolutions and widget sets, never their keys', async () => {
		const { overlays } = expectBody(await api(sim, 'GET', '/overlays'), 200, OverlaysBody);
		expect(overlays.length).toBeGreaterThanOrEqual(2);
		const resolutions = new Set(overlays.map((o) => `${o.width}x${o.height}`));
		expect(resolutions.size).toBeGreaterThanOrEqual(2);
		const widgetSets = new Set(overlays.map((o) => o.widgets.map((w) => w.type).join(',')));
		expect(widgetSets.size).toBeGreaterThanOrEqual(2);
		for (const o of overlays) {
			for (const w of o.widgets) expect(WIDGET_TYPES).toContain(w.type);
			expect(JSON.stringify(o)).not.toMatch(/key/i);
		}
	});

	it('one overlay can be read by id', async () => {
		const { overlays } = expectBody(await api(sim, 'GET', '/overlays'), 200, OverlaysBody);
		const { overlay } = expectBody(await api(sim, 'GET', `/overlays/${CHAT}`), 200, OverlayBody);
		expect(overlay).toEqual(overlays.find((o) => o.id === CHAT));
	});

	it('an unknown or malformed overlay id answers 404', async () => {
		expectError(await api(sim, 'GET', '/overlays/o_00000000'), 404, 'not_found');
		expectError(await api(sim, 'GET', '/overlays/not-an-overlay'), 404, 'not_found');
		expectError(await api(sim, 'GET', '/overlays/o_00000000/tip-goal'), 404, 'not_found');
		expectError(await api(sim, 'POST', '/overlays/o_00000000/reload'), 404, 'not_found');
		expectError(await api(sim, 'DELETE', '/overlays/o_00000000'), 404, 'not_found');
	});

	it('reloading an overlay announces overlay.reload for that overlay', async () => {
		expectBody(await api(sim, 'POST', `/overlays/${CHAT}/reload`), 200, SuccessBody);
		const event = await nextEvent(rt, 'overlay.reload');
		expect(event.data).toEqual({ overlay_id: CHAT });
	});

	it('a celebration can target every overlay, one overlay, or one widget', async () => {
		const fire = (body: unknown) => api(sim, 'POST', '/overlays/celebration', { body });
		expectBody(await fire({}), 200, SuccessBody);
		expectBody(await fire({ overlay_id: CHAT }), 200, SuccessBody);
		expectBody(await fire({ widget_id: 'w_main_party' }), 200, SuccessBody);
		expectBody(await fire({ overlay_id: MAIN, widget_id: 'w_main_party' }), 200, SuccessBody);

		await nextEvent(rt, 'overlay.celebration', () => rt.events('overlay.celebration').length >= 4);
		const targets = rt.events('overlay.celebration').map((e) => e.data);
		expect(targets).toEqual([
			{ overlay_id: null, widget_id: null },
			{ overlay_id: CHAT, widget_id: null },
			{ overlay_id: MAIN, widget_id: 'w_main_party' },
			{ overlay_id: MAIN, widget_id: 'w_main_party' }
		]);
	});

	it('a celebration aimed at an unknown overlay or widget answers an error and fires nothing', async () => {
		const fire = (body: unknown) => api(sim, 'POST', '/overlays/celebration', { body });
		expectError(await fire({ overlay_id: 'o_00000000' }), 404, 'not_found');
		expectError(await fire({ widget_id: 'w_nope' }), 404, 'not_found');
		expectError(await fire({ overlay_id: CHAT, widget_id: 'w_main_party' }), 404, 'not_found');
		expectError(await fire({ overlay_id: 'main' }), 400, 'bad_request');
		await settle();
		expect(sim.control.log.events('overlay.celebration')).toHaveLength(0);
	});

	it('a deleted overlay is gone from the list and answers 404', async () => {
		expectBody(await api(sim, 'DELETE', `/overlays/${CHAT}`), 200, SuccessBody);
		const { overlays } = expectBody(await api(sim, 'GET', '/overlays'), 200, OverlaysBody);
		expect(overlays.map((o) => o.id)).not.toContain(CHAT);
		expectError(await api(sim, 'GET', `/overlays/${CHAT}`), 404, 'not_found');
	});
});

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
