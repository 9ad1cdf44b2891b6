// The show's controls in the dock (docs/dock.md, "Counters", "Tip goal", "Celebrate") against the
// real simulator over loopback: each reaches the upstream as the API asks, fires the event the OBS
// sources follow, and a mistake is refused by field, or before anything is sent.
import { describe, expect, it } from 'vitest';
import { api, RealtimeClient } from '../fixtures/sim.ts';
import { rig } from './control.setup.ts';

const GOAL = '/control/overlays/o_1a2b3c4d/tip-goal';

describe('counters from the dock', () => {
	it('creates, adds, sets, resets and deletes a counter, each as the upstream has it after', async () => {
		const r = await rig();
		const made = await r.dock('POST', '/control/counters', {
			body: { name: 'dock-deaths', value: 3 }
		});
		expect(made.status).toBe(200);
		expect(made.body.counter).toMatchObject({ name: 'dock-deaths', value: 3 });
		expect(
			(await r.dock('POST', '/control/counters/dock-deaths/add', { body: { by: 1 } })).body.counter
				.value
		).toBe(4);
		expect(
			(await r.dock('POST', '/control/counters/dock-deaths/add', { body: { by: -2 } })).body.counter
				.value
		).toBe(2);
		expect(
			(await r.dock('PUT', '/control/counters/dock-deaths', { body: { value: 42 } })).body.counter
				.value
		).toBe(42);
		expect(
			(await r.dock('PUT', '/control/counters/dock-deaths', { body: { value: 0 } })).body.counter
				.value
		).toBe(0);
		expect((await api(r.sim, 'GET', '/counters/dock-deaths')).body.counter.value).toBe(0);
		const gone = await r.dock('POST', '/control/counters/dock-deaths/delete');
		expect(gone.body).toEqual({ outcome: 'done', message: 'dock-deaths deleted' });
		expect((await api(r.sim, 'GET', '/counters/dock-deaths')).status).toBe(404);
		expect((await r.dock('POST', '/control/counters/dock-deaths/delete')).body.outcome).toBe(
			'already'
		);
	});

	it('loses no press when two docks add at once', async () => {
		const r = await rig();
		await r.dock('POST', '/control/counters', { body: { name: 'dock-wins' } });
		await Promise.all(
			Array.from({ length: 10 }, () =>
				r.dock('POST', '/control/counters/dock-wins/add', { body: { by: 1 } })
			)
		);
		expect((await api(r.sim, 'GET', '/counters/dock-wins')).body.counter.value).toBe(10);
	});

	it('fires counter.updated, which the counters widget follows', async () => {
		const r = await rig();
		const client = await RealtimeClient.connect(r.sim);
		await r.dock('POST', '/control/counters', { body: { name: 'hugs' } });
		await r.dock('POST', '/control/counters/hugs/add', { body: { by: 5 } });
		const event = await client.next(
			(m) => m.type === 'counter.updated' && m.data.counter.value === 5
		);
		expect(event.data.counter.name).toBe('hugs');
		client.close();
	});

	it('refuses a bad name before calling the upstream, and an existing one by its field', async () => {
		const r = await rig();
		const before = r.calls.length;
		const bad = await r.dock('POST', '/control/counters', { body: { name: 'Deaths!' } });
		expect(bad.status).toBe(400);
		expect(bad.body.error).toMatch(/"name"/);
		expect(
			(await r.dock('POST', '/control/counters/NOT%20A%20NAME/add', { body: { by: 1 } })).status
		).toBe(400);
		expect(r.calls.length).toBe(before);
		await r.dock('POST', '/control/counters', { body: { name: 'taken' } });
		const again = await r.dock('POST', '/control/counters', { body: { name: 'taken' } });
		expect(again.status).toBe(409);
		expect(again.body).toMatchObject({ code: 'counter_exists', field: 'name' });
	});

	it('says which field the upstream refused: past 100 counters, the new name', async () => {
		const r = await rig();
		const have = (await api(r.sim, 'GET', '/counters')).body.counters.length;
		for (let i = have; i < 100; i++)
			await api(r.sim, 'POST', '/counters', { body: { name: `c${i}` } });
		const over = await r.dock('POST', '/control/counters', { body: { name: 'one-too-many' } });
		expect(over.status).toBe(400);
		expect(over.body).toMatchObject({ code: 'invalid', field: 'name' });
	});
});

describe('the tip goal from the dock', () => {
	it('saves the fields given and answers the goal as it is now, firing overlay.tip_goal.updated', async () => {
		const r = await rig();
		const client = await RealtimeClient.connect(r.sim);
		const res = await r.dock('PUT', GOAL, { body: { title: 'New chair', amount: 500 } });
		expect(res.status).toBe(200);
		expect(res.body.tip_goal).toMatchObject({ title: 'New chair', amount: 500, enabled: true });
		const event = await client.next((m) => m.type === 'overlay.tip_goal.updated');
		expect(event.data).toMatchObject({
			overlay_id: 'o_1a2b3c4d',
			tip_goal: { title: 'New chair' }
		});
		client.close();
	});

	it('starts a new goal from now: nothing raised toward it yet', async () => {
		const r = await rig();
		await api(r.sim, 'POST', '/overlays/o_1a2b3c4d/tip-goal/add', { body: { amount: 30 } });
		const now = new Date().toISOString();
		const res = await r.dock('PUT', GOAL, {
			body: { starts_at: now, ends_at: null, enabled: true }
		});
		expect(res.body.tip_goal.starts_at).toBe(now);
		expect(res.body.tip_goal.ends_at).toBeNull();
	});

	it('refuses a target past the upstream limit, an unknown field or a bad overlay id, sending nothing', async () => {
		const r = await rig();
		const before = r.calls.length;
		expect((await r.dock('PUT', GOAL, { body: { amount: 2_000_000 } })).status).toBe(400);
		expect((await r.dock('PUT', GOAL, { body: { current: 9 } })).status).toBe(400);
		expect(
			(await r.dock('PUT', '/control/overlays/o_nothex00/tip-goal', { body: {} })).status
		).toBe(400);
		expect(r.calls.length).toBe(before);
	});
});

describe('celebrate from the dock', () => {
	it.each([
		[{}, { overlay_id: null, widget_id: null }, 'every overlay'],
		[{ overlay_id: 'o_1a2b3c4d' }, { overlay_id: 'o_1a2b3c4d', widget_id: null }, 'one overlay'],
		[
			{ overlay_id: 'o_1a2b3c4d', widget_id: 'w_main_party' },
			{ overlay_id: 'o_1a2b3c4d', widget_id: 'w_main_party' },
			'one widget'
		]
	])('fires overlay.celebration for %j', async (body, data, where) => {
		const r = await rig();
		const client = await RealtimeClient.connect(r.sim);
		const res = await r.dock('POST', '/control/celebrate', { body });
		expect(res.body).toEqual({ outcome: 'done', message: `celebrating on ${where}` });
		const event = await client.next((m) => m.type === 'overlay.celebration');
		expect(event.data).toMatchObject(data);
		client.close();
	});
});
