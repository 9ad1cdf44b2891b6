// Fault injection of the simulator (docs/simulator.md, Faults on demand): the realtime faults
// (dropped sockets, duplicated, reordered and delayed events) do what they say, through the
// in-process handle `sim.control` and through the HTTP control API under {origin}/_sim.
import { describe, expect, it } from 'vitest';
import { CLOSE_UNAUTHORIZED } from '../../src/contract/index.ts';
import { RealtimeClient, until } from '../fixtures/sim.ts';
import { start, control, VIA, type Via, canConnect, bump, counterEvents } from './faults.setup.ts';

describe.each(VIA)('faults through %s', (via: Via) => {
	const handle = via === 'the control handle';

	it('dropSockets kills every socket without a 4401 close', async () => {
		const sim = await start();
		const a = await RealtimeClient.connect(sim);
		const b = await RealtimeClient.connect(sim);
		if (handle) expect(sim.control.dropSockets()).toBe(2);
		else expect(await control(sim, 'faults/drop')).toMatchObject({ success: true, dropped: 2 });
		for (const client of [a, b]) {
			const code = await client.closed();
			expect(code).not.toBe(CLOSE_UNAUTHORIZED);
			// No close frame: the client sees an abnormal closure, and no error message came first.
			expect(code).toBe(1006);
			expect(client.messages.some((m) => m.type === 'error')).toBe(false);
		}
		// Without refuse_ms a reconnect works at once.
		const again = await RealtimeClient.connect(sim);
		expect(again.messages[0].type).toBe('ready');
	});

	it('dropSockets with refuseMs refuses new connections until the time has passed', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const refuseMs = 800;
		const droppedAt = Date.now();
		if (handle) sim.control.dropSockets(refuseMs);
		else await control(sim, 'faults/drop', { refuse_ms: refuseMs });
		expect(await client.closed()).not.toBe(CLOSE_UNAUTHORIZED);

		expect(await canConnect(sim)).toBe(false);
		let connected = false;
		const deadline = Date.now() + 15_000;
		while (!connected && Date.now() < deadline) {
			connected = await canConnect(sim);
			if (!connected) await new Promise((r) => setTimeout(r, 50));
		}
		expect(connected).toBe(true);
		expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(refuseMs);
		const after = await RealtimeClient.connect(sim);
		expect(after.messages[0].type).toBe('ready');
	});

	it('duplicateEvents sends the same event id twice, then delivery is normal again', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		if (handle) sim.control.duplicateEvents(1);
		else await control(sim, 'faults/events', { duplicate: 1 });

		const first = bump(sim);
		await until(() => counterEvents(client).length >= 2);
		const [one, two] = counterEvents(client);
		expect(two.id).toBe(one.id);
		expect(two).toEqual(one);
		expect(one.data.counter.value).toBe(first);

		// The fault covered one event: the next one arrives once (a later sentinel proves it).
		const second = bump(sim);
		const sentinel = bump(sim);
		await client.next((m) => m.type === 'counter.updated' && m.data.counter.value === sentinel);
		const seconds = counterEvents(client).filter((e) => e.data.counter.value === second);
		expect(seconds).toHaveLength(1);
	});

	it('reorderEvents delivers two consecutive events swapped', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		if (handle) sim.control.reorderEvents(1);
		else await control(sim, 'faults/events', { reorder: 1 });

		const a = bump(sim);
		const b = bump(sim);
		await until(() => counterEvents(client).length >= 2);
		expect(counterEvents(client).map((e) => e.data.counter.value)).toEqual([b, a]);

		// Then the order is normal again.
		const c = bump(sim);
		const d = bump(sim);
		await until(() => counterEvents(client).length >= 4);
		expect(counterEvents(client).map((e) => e.data.counter.value)).toEqual([b, a, c, d]);
	});

	it('reorderEvents never holds an event forever when nothing follows it', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		if (handle) sim.control.reorderEvents(1);
		else await control(sim, 'faults/events', { reorder: 1 });
		const only = bump(sim);
		const event = await client.next((m) => m.type === 'counter.updated', 10_000);
		expect(event.data.counter.value).toBe(only);
	});

	it('delayEvents makes an event arrive late, after events emitted later', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const delayMs = 600;
		if (handle) sim.control.delayEvents(1, delayMs);
		else await control(sim, 'faults/events', { delay: 1, delay_ms: delayMs });

		const emittedAt = Date.now();
		const late = bump(sim);
		const prompt = bump(sim);
		await client.next((m) => m.type === 'counter.updated' && m.data.counter.value === late, 10_000);
		const arrivedAfter = Date.now() - emittedAt;
		expect(counterEvents(client).map((e) => e.data.counter.value)).toEqual([prompt, late]);
		// Timers never fire early by more than a tick; the bound is loose on purpose.
		expect(arrivedAfter).toBeGreaterThanOrEqual(delayMs - 50);
	});
});
