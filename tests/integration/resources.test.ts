// Counters and overlays over real HTTP (docs/upstream.md: endpoints, limits, records,
// counters, overlays). Tip goals and tipping are in resources.tipping.test.ts.
import { describe, expect, it } from 'vitest';
import {
	CounterBody,
	CountersBody,
	OverlayBody,
	OverlaysBody,
	SuccessBody,
	WIDGET_TYPES
} from '../../src/contract/index.ts';
import { expectBody, expectError, nextEvent, settle } from '../fixtures/contract-checks.ts';
import { api } from '../fixtures/sim.ts';
import { sim, rt, MAIN, CHAT } from './resources.setup.ts';

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
