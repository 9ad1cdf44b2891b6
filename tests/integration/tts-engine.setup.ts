// The rig of the TTS engine tests (tts-engine.test.ts, tts-engine.recovery.test.ts): a real
// simulator, token endpoint and WebSocket, and consumers running the claim reducer with
// TimedAudioPort (tests/fixtures/tts-consumer.ts).
import { afterEach, expect } from 'vitest';
import { wavDurationSeconds } from '../../src/client/audio-timed.ts';
import type { StartOptions } from '../../src/sim/index.ts';
import { serveTokenEndpoint } from '../fixtures/served-endpoint.ts';
import { api, until, withSim, type Sim } from '../fixtures/sim.ts';
import { simUpstream } from '../fixtures/token-endpoint.ts';
import {
	startTtsConsumer,
	type TtsConsumer,
	type TtsConsumerOptions
} from '../fixtures/tts-consumer.ts';

// Generous: a loaded 2-core machine runs these next to other suites.
export const WAIT = 15_000;

export const TEST_TIMEOUT = 40_000;

/** Short enough to stop halfway (~2.5 s of espeak), long enough that stopping is visible. */
export const LONG = 'this message is long enough to be cut off halfway';

export const cleanups: (() => unknown)[] = [];

/** The consumers of the running test, described when a wait fails. */
export const consumers: TtsConsumer[] = [];

afterEach(async () => {
	consumers.length = 0;
	for (const c of cleanups.splice(0).reverse()) await c();
});

export interface Rig {
	sim: Sim;
	consumer(options?: TtsConsumerOptions): TtsConsumer;
}

export async function rig(simOptions: StartOptions = {}): Promise<Rig> {
	// No incidental 429s: only the injected ones count.
	const sim = await withSim({ perKeyPerMinute: 10_000, perIpPerMinute: 10_000, ...simOptions });
	cleanups.push(() => sim.close());
	const endpoint = await serveTokenEndpoint(simUpstream(sim));
	cleanups.push(() => endpoint.close());
	return {
		sim,
		consumer(options) {
			const c = startTtsConsumer(endpoint.origin, options);
			consumers.push(c);
			cleanups.push(() => c.close());
			return c;
		}
	};
}

/** A consumer that has applied its first snapshot (nothing is claimed before). */
export async function syncedConsumer(r: Rig, options?: TtsConsumerOptions): Promise<TtsConsumer> {
	const c = r.consumer(options);
	await until(() => c.runner.snapshot.synced, WAIT);
	return c;
}

export async function tip(sim: Sim, name: string, message = 'hi'): Promise<string> {
	const res = await api(sim, 'POST', '/tips', { body: { name, amount: 5, message, paid: true } });
	expect(res.status).toBe(201);
	return res.body.tip.order_id as string;
}

export async function ready(sim: Sim, orderId: string): Promise<void> {
	await until(() => sim.control.model.findTip(orderId)?.tts_url != null, WAIT);
}

export interface ClaimCall {
	op: 'start' | 'finish' | 'release';
	orderId: string;
	status: number;
	code?: string;
	t: number;
	seq: number;
}

/** POST /tts/{id}/start|finish|release as the simulator answered them, in order. */
export function claimCalls(sim: Sim, orderId?: string): ClaimCall[] {
	return sim.control.log
		.requests({ method: 'POST', path: /^\/tts\/[^/]+\/(start|finish|release)$/ })
		.map((e) => {
			const [, id, op] = /^\/tts\/([^/]+)\/(\w+)$/.exec(e.path)!;
			return {
				op: op as ClaimCall['op'],
				orderId: id,
				status: e.status,
				code: e.code,
				t: e.t,
				seq: e.seq
			};
		})
		.filter((c) => orderId === undefined || c.orderId === orderId);
}

/** `op id` for every call that succeeded. */
export const succeeded = (sim: Sim, orderId?: string) =>
	claimCalls(sim, orderId)
		.filter((c) => c.status === 200)
		.map((c) => `${c.op} ${c.orderId}`);

/** The simulator's log entry of the last request to `path` (for ordering by `seq`). */
export function lastRequest(sim: Sim, path: string) {
	const entries = sim.control.log.requests({ method: 'POST', path });
	expect(entries.length, path).toBeGreaterThan(0);
	return entries[entries.length - 1];
}

export const okCalls = (sim: Sim, op: ClaimCall['op']) =>
	claimCalls(sim).filter((c) => c.op === op && c.status === 200);

/** One start, then one finish per tip, one tip at a time, in this order. */
export const playedInOrder = (ids: string[]) =>
	ids.flatMap((id) => [`start ${id}`, `finish ${id}`]);

export async function finished(sim: Sim, ids: string[]): Promise<void> {
	const done = () => okCalls(sim, 'finish').map((c) => c.orderId);
	await until(() => ids.every((id) => done().includes(id)), WAIT).catch(() => {
		const calls = claimCalls(sim).map((c) => `${c.t} ${c.op} ${c.orderId} ${c.status}`);
		const states = consumers.map((c) => {
			const { config: _, ...state } = c.runner.snapshot;
			return JSON.stringify({ now: Date.now(), state, logs: c.logs, rt: c.realtime.state });
		});
		throw new Error(
			`not all of ${ids.join(', ')} finished in time; calls:\n${calls.join('\n')}\n${states.join('\n')}`
		);
	});
}

export async function audioSeconds(sim: Sim, orderId: string): Promise<number> {
	const url = sim.control.model.findTip(orderId)?.tts_url;
	if (!url) throw new Error(`${orderId} has no audio`);
	const res = await fetch(url);
	return wavDurationSeconds(new Uint8Array(await res.arrayBuffer()));
}

/** Played to the end, exactly once across all consumers. */
export function expectPlayedOnce(consumers: TtsConsumer[], ids: string[]): void {
	for (const id of ids) {
		const plays = consumers.flatMap((c) => c.playsOf(id));
		expect(
			plays.map((p) => p.how),
			id
		).toEqual(['ended']);
	}
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
