// The event groups and helpers the realtime tests (realtime.test.ts, realtime.events.test.ts)
// share: a simulator per test, handoff tokens and authenticated clients.
import { expect } from 'vitest';
import { parseServerFrame } from '../../src/contract/index.ts';
import { api, RealtimeClient, simsPerTest, type Sim } from '../fixtures/sim.ts';

// The event catalog of docs/upstream.md, written out by hand so the test does not trust the schema.
export const TTS_EVENTS = [
	'tip.created',
	'tip.tts_ready',
	'queue.tts.started',
	'queue.tts.finished',
	'queue.tts.released',
	'queue.tts.skipped',
	'queue.tts.removed',
	'queue.tts.replayed',
	'queue.tts.paused',
	'queue.tts.resumed',
	'queue.tts.cleared'
];

export const MEDIA_EVENTS = [
	'queue.media.added',
	'queue.media.started',
	'queue.media.finished',
	'queue.media.released',
	'queue.media.skipped',
	'queue.media.removed',
	'queue.media.paused',
	'queue.media.resumed',
	'queue.media.visibility'
];

export const COUNTER_EVENTS = ['counter.updated', 'counter.deleted'];

export const OVERLAY_EVENTS = ['overlay.celebration', 'overlay.reload', 'overlay.tip_goal.updated'];

export const ANY_CREDENTIAL_EVENTS = ['tipping.opened', 'tipping.closed'];

export const sorted = (list: readonly string[]) => [...list].sort();

/** A simulator for the test, closed after it. */
export const start = simsPerTest();

/** Opens a socket and sends `message` as the first message; resolves once ready or error arrives. */
export async function authWith(sim: Sim, message: unknown): Promise<RealtimeClient> {
	const client = await RealtimeClient.open(sim);
	client.send(message);
	await client.next((m) => m.type === 'ready' || m.type === 'error');
	return client;
}

export async function handoff(sim: Sim, key = sim.apiKey): Promise<string> {
	const res = await api(sim, 'POST', '/realtime/token', { key });
	expect(res.status).toBe(200);
	return res.body.token;
}

export function counterValue(sim: Sim, name = 'deaths'): number {
	return sim.control.model.counter(name).value;
}

/** Every frame a client received must be a valid server message of docs/upstream.md. */
export function expectValidFrames(client: RealtimeClient): void {
	for (const m of client.messages) {
		const parsed = parseServerFrame(JSON.stringify(m));
		expect(parsed, JSON.stringify(m)).toMatchObject({ ok: true });
	}
}
