// A simulator per test and the helpers the fault tests (faults.test.ts, faults.http.test.ts,
// faults.queues.test.ts) share; every fault is tested through both ways to steer the simulator
// (VIA).
import { expect } from 'vitest';
import { RealtimeClient, simsPerTest, type Sim } from '../fixtures/sim.ts';

/** A simulator for the test, closed after it. */
export const start = simsPerTest();

/** POST {origin}/_sim/<path> with a JSON body. */
export async function control(sim: Sim, path: string, body: unknown = {}): Promise<any> {
	const res = await fetch(`${sim.origin}/_sim/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});
	expect(res.status, `POST /_sim/${path}`).toBeLessThan(300);
	return res.json();
}

/** The two ways to steer the simulator; every fault is tested through both. */
export const VIA = ['the control handle', 'the HTTP control API'] as const;

export type Via = (typeof VIA)[number];

/** Whether a WebSocket to the simulator can be opened right now. */
export async function canConnect(sim: Sim): Promise<boolean> {
	try {
		const client = await RealtimeClient.open(sim);
		client.close();
		return true;
	} catch {
		return false;
	}
}

/** A counter bump straight on the model: one event, emitted synchronously, no HTTP involved. */
export function bump(sim: Sim, name = 'deaths'): number {
	return sim.control.model.incrementCounter(name, 1).value;
}

export function counterEvents(client: RealtimeClient): any[] {
	return client.events('counter.updated');
}

export async function fetchAudio(
	url: string
): Promise<{ status: number; type: string | null; bytes: Buffer }> {
	const res = await fetch(url);
	return {
		status: res.status,
		type: res.headers.get('content-type'),
		bytes: Buffer.from(await res.arrayBuffer())
	};
}

export const isWav = (bytes: Buffer) =>
	bytes.length > 44 &&
	bytes.toString('latin1', 0, 4) === 'RIFF' &&
	bytes.toString('latin1', 8, 12) === 'WAVE';
