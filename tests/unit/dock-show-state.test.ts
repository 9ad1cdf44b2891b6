// The dock's show controls (widgets/dock/show.svelte.ts) with a fake control client: the counters
// and goals as read, kept by the upstream's events (a late answer never undoes a newer event), a
// refusal kept beside the field it names, and a missing scope said in words the streamer can act on.
import { describe, expect, it, vi } from 'vitest';
import type { Counter, KnownEvent, TipGoal } from '../../src/contract/index.ts';
import type { Outcome } from '../../widgets/dock/actions.ts';
import type { ControlClient } from '../../widgets/dock/control-client.ts';
import { DockShow } from '../../widgets/dock/show.svelte.ts';

const at = (s: number) => `2026-12-01T20:00:${String(s).padStart(2, '0')}.000Z`;
const counter = (name: string, value: number, s = 0): Counter => ({
	name,
	value,
	created_at: at(0),
	updated_at: at(s)
});
const GOAL: TipGoal = {
	enabled: true,
	title: 'Chair',
	amount: 100,
	starts_at: null,
	ends_at: null,
	current: 5
};
const event = (type: string, data: unknown) =>
	({ id: `evt_${type}`, created_at: at(0), type, data }) as unknown as KnownEvent;

function setup(answers: { show?: unknown; counters?: unknown } = {}) {
	const outcomes: Record<string, Outcome> = {};
	const client = {
		readCounters: vi.fn(
			async () =>
				answers.counters ?? {
					ok: true,
					status: 200,
					body: { counters: [counter('wins', 1), counter('deaths', 3)] }
				}
		),
		readOverlays: vi.fn(async () => ({
			ok: true,
			status: 200,
			body: {
				overlays: [
					{
						id: 'o_1a2b3c4d',
						name: 'Main',
						width: 1920,
						height: 1080,
						widgets: [{ id: 'w_g', type: 'tip_goal', settings: {} }]
					},
					{ id: 'o_5e6f7a8b', name: 'Chat', width: 1280, height: 720, widgets: [] }
				]
			}
		})),
		readGoal: vi.fn(async () => ({ ok: true, status: 200, body: { tip_goal: GOAL } })),
		show: vi.fn(async () => answers.show)
	};
	const show = new DockShow({
		client: client as unknown as ControlClient,
		press: async (_id, where, run) => {
			const o = await run();
			if (o) outcomes[where] = o;
		}
	});
	return { show, client, outcomes };
}

describe('the dock show controls', () => {
	it('reads the counters in name order, and the goals of the overlays that show one', async () => {
		const { show, client } = setup();
		await show.read();
		expect(show.counters?.map((c) => c.name)).toEqual(['deaths', 'wins']);
		expect(show.goalOverlays.map((o) => o.id)).toEqual(['o_1a2b3c4d']);
		expect(show.goals).toEqual({ o_1a2b3c4d: GOAL });
		expect(client.readGoal).toHaveBeenCalledTimes(1);
	});

	it('follows counter and goal events, and a late answer never undoes a newer event', async () => {
		const { show } = setup({
			show: { ok: true, status: 200, body: { counter: counter('deaths', 4, 1) } }
		});
		await show.read();
		expect(
			show.apply(event('counter.updated', { counter: counter('deaths', 9, 5), previous: 8 }))
		).toBe(true);
		await show.add('deaths', 1); // its answer (4, at second 1) predates the event (9, at second 5)
		expect(show.counters?.find((c) => c.name === 'deaths')?.value).toBe(9);
		show.apply(event('counter.deleted', { name: 'wins' }));
		expect(show.counters?.map((c) => c.name)).toEqual(['deaths']);
		show.apply(
			event('overlay.tip_goal.updated', {
				overlay_id: 'o_1a2b3c4d',
				tip_goal: { ...GOAL, title: 'Desk' }
			})
		);
		expect(show.goals.o_1a2b3c4d.title).toBe('Desk');
		expect(show.apply(event('tip.created', {}))).toBe(false);
	});

	it('keeps a refusal that names a field for its form, and says what a press did', async () => {
		const taken = {
			ok: false,
			kind: 'http',
			status: 409,
			code: 'counter_exists',
			body: { error: 'counter deaths already exists', code: 'counter_exists', field: 'name' }
		};
		const { show, outcomes } = setup({ show: taken });
		await show.create('deaths', undefined);
		expect(show.fieldProblems['counter-new']).toEqual({
			field: 'name',
			text: 'counter deaths already exists'
		});
		expect(outcomes['counter-new'].kind).toBe('refused');
	});

	it('says which scope to add when the counters cannot be read for want of it', async () => {
		const { show } = setup({
			counters: { ok: false, kind: 'http', status: 403, code: 'missing_scope', body: {} }
		});
		await show.read();
		expect(show.problems.counters).toMatch(/lacks the counters:manage scope: add it to the key/);
		expect(show.counters).toBeNull();
	});
});
