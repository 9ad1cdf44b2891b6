// The TTS player's engine end to end, without Svelte: real simulator, real token endpoint, real
// WebSocket, the claim reducer and its runner, and TimedAudioPort playing each WAV for its real
// length (tests/fixtures/tts-consumer.ts). Every scenario is checked from both sides: what the
// consumer played, and the claim calls the simulator answered (service-api.md, States and
// transitions; CONTRACT.md, TTS queue and Details; the rules in src/core/claim-protocol.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { VolatileClaimMemory } from '../../src/client/claim-memory.ts';
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
const WAIT = 15_000;
const TEST_TIMEOUT = 40_000;
/** Short enough to stop halfway (~2.5 s of espeak), long enough that stopping is visible. */
const LONG = 'this message is long enough to be cut off halfway';

const cleanups: (() => unknown)[] = [];
/** The consumers of the running test, described when a wait fails. */
const consumers: TtsConsumer[] = [];
afterEach(async () => {
	consumers.length = 0;
	for (const c of cleanups.splice(0).reverse()) await c();
});

interface Rig {
	sim: Sim;
	consumer(options?: TtsConsumerOptions): TtsConsumer;
}

async function rig(simOptions: StartOptions = {}): Promise<Rig> {
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
async function syncedConsumer(r: Rig, options?: TtsConsumerOptions): Promise<TtsConsumer> {
	const c = r.consumer(options);
	await until(() => c.runner.snapshot.synced, WAIT);
	return c;
}

async function tip(sim: Sim, name: string, message = 'hi'): Promise<string> {
	const res = await api(sim, 'POST', '/tips', { body: { name, amount: 5, message, paid: true } });
	expect(res.status).toBe(201);
	return res.body.tip.order_id as string;
}

async function ready(sim: Sim, orderId: string): Promise<void> {
	await until(() => sim.control.model.findTip(orderId)?.tts_url != null, WAIT);
}

interface ClaimCall {
	op: 'start' | 'finish' | 'release';
	orderId: string;
	status: number;
	code?: string;
	t: number;
	seq: number;
}

/** POST /tts/{id}/start|finish|release as the simulator answered them, in order. */
function claimCalls(sim: Sim, orderId?: string): ClaimCall[] {
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
const succeeded = (sim: Sim, orderId?: string) =>
	claimCalls(sim, orderId)
		.filter((c) => c.status === 200)
		.map((c) => `${c.op} ${c.orderId}`);

/** The simulator's log entry of the last request to `path` (for ordering by `seq`). */
function lastRequest(sim: Sim, path: string) {
	const entries = sim.control.log.requests({ method: 'POST', path });
	expect(entries.length, path).toBeGreaterThan(0);
	return entries[entries.length - 1];
}

const okCalls = (sim: Sim, op: ClaimCall['op']) =>
	claimCalls(sim).filter((c) => c.op === op && c.status === 200);

/** One start, then one finish per tip, one tip at a time, in this order. */
const playedInOrder = (ids: string[]) => ids.flatMap((id) => [`start ${id}`, `finish ${id}`]);

async function finished(sim: Sim, ids: string[]): Promise<void> {
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

async function audioSeconds(sim: Sim, orderId: string): Promise<number> {
	const url = sim.control.model.findTip(orderId)?.tts_url;
	if (!url) throw new Error(`${orderId} has no audio`);
	const res = await fetch(url);
	return wavDurationSeconds(new Uint8Array(await res.arrayBuffer()));
}

/** Played to the end, exactly once across all consumers. */
function expectPlayedOnce(consumers: TtsConsumer[], ids: string[]): void {
	for (const id of ids) {
		const plays = consumers.flatMap((c) => c.playsOf(id));
		expect(
			plays.map((p) => p.how),
			id
		).toEqual(['ended']);
	}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the TTS engine against the simulator', () => {
	it(
		'five tips created quickly each play once, in creation order, for their whole audio',
		async () => {
			const r = await rig();
			const c = await syncedConsumer(r);
			const ids: string[] = [];
			for (const name of ['Al', 'Bo', 'Cy', 'Di', 'Ed']) ids.push(await tip(r.sim, name));
			await finished(r.sim, ids);

			const calls = claimCalls(r.sim);
			expect(calls.map((x) => `${x.op} ${x.orderId}`)).toEqual(playedInOrder(ids));
			expect(calls.every((x) => x.status === 200)).toBe(true);
			expectPlayedOnce([c], ids);
			expect(c.plays.map((p) => p.orderId)).toEqual(ids);
			for (const id of ids) {
				const seconds = await audioSeconds(r.sim, id);
				const [start, finish] = claimCalls(r.sim, id);
				expect(finish.t - start.t, id).toBeGreaterThanOrEqual(Math.floor(seconds * 1000));
				expect(c.playsOf(id)[0].durationS).toBeCloseTo(seconds, 3);
			}
		},
		TEST_TIMEOUT
	);

	it(
		'two consumers at once play every tip exactly once between them',
		async () => {
			const r = await rig();
			const a = await syncedConsumer(r);
			const b = await syncedConsumer(r);
			const ids: string[] = [];
			for (const name of ['Al', 'Bo', 'Cy', 'Di']) ids.push(await tip(r.sim, name));
			await finished(r.sim, ids);

			expect(succeeded(r.sim)).toEqual(playedInOrder(ids));
			expectPlayedOnce([a, b], ids);
			for (const id of ids) expect(a.playsOf(id).length + b.playsOf(id).length, id).toBe(1);
			// The loser of each race was refused, never let in: no finish failed.
			expect(claimCalls(r.sim).filter((x) => x.op === 'finish' && x.status !== 200)).toEqual([]);
			// Nothing left behind.
			await until(() => r.sim.control.model.tts.items.length === 0, WAIT);
			expect(r.sim.control.model.tts.current).toBeNull();
		},
		TEST_TIMEOUT
	);

	it(
		'a socket drop loses and doubles nothing, and tips created while it is down play after the reconnect',
		async () => {
			const r = await rig();
			const c = await syncedConsumer(r);
			const before = [await tip(r.sim, 'Al', 'hello there'), await tip(r.sim, 'Bo')];
			await until(() => c.current()?.orderId === before[0], WAIT);
			// Reconnects are refused for a while, so these tips' events reach nobody.
			expect(r.sim.control.dropSockets(1500)).toBe(1);
			const during = [await tip(r.sim, 'Cy'), await tip(r.sim, 'Di')];
			expect(c.realtime.connects).toBe(1); // still down: their events went nowhere
			const ids = [...before, ...during];
			await finished(r.sim, ids);

			expect(succeeded(r.sim)).toEqual(playedInOrder(ids));
			expectPlayedOnce([c], ids);
			expect(c.realtime.connects).toBe(2);
			const reconnectedAt = c.states.filter((s) => s.state === 'open')[1].at;
			for (const id of during) {
				const [start] = claimCalls(r.sim, id);
				expect(start.t, id).toBeGreaterThanOrEqual(reconnectedAt);
			}
		},
		TEST_TIMEOUT
	);

	it(
		'a pause lets the playing tip finish and starts nothing more until resume',
		async () => {
			const r = await rig();
			const c = await syncedConsumer(r);
			const ids = [
				await tip(r.sim, 'Al', 'hello there, this plays on'),
				await tip(r.sim, 'Bo'),
				await tip(r.sim, 'Cy')
			];
			await until(() => c.current()?.orderId === ids[0] && !!c.current()?.audioStartedAt, WAIT);
			const paused = await api(r.sim, 'POST', '/tts/pause');
			expect(paused.body).toMatchObject({ success: true, is_paused: true });
			const pauseSeq = lastRequest(r.sim, '/tts/pause').seq;
			await finished(r.sim, [ids[0]]);
			await until(() => c.runner.snapshot.paused && c.runner.snapshot.mine === null, WAIT);
			await sleep(1500);

			expect(c.playsOf(ids[0]).map((p) => p.how)).toEqual(['ended']);
			expect(c.plays).toHaveLength(1);
			expect(okCalls(r.sim, 'start').filter((x) => x.seq > pauseSeq)).toEqual([]);
			expect(okCalls(r.sim, 'finish')[0].seq).toBeGreaterThan(pauseSeq);

			const resumed = await api(r.sim, 'POST', '/tts/resume');
			expect(resumed.body).toMatchObject({ success: true, is_paused: false });
			const resumeSeq = lastRequest(r.sim, '/tts/resume').seq;
			await finished(r.sim, ids);
			expect(succeeded(r.sim)).toEqual(playedInOrder(ids));
			expectPlayedOnce([c], ids);
			for (const id of ids.slice(1))
				expect(claimCalls(r.sim, id)[0].seq, id).toBeGreaterThan(resumeSeq);
		},
		TEST_TIMEOUT
	);

	it(
		'a skip of the playing tip stops it at once, without a finish, and the next one plays',
		async () => {
			const r = await rig();
			const c = await syncedConsumer(r);
			const [long, next] = [await tip(r.sim, 'Al', LONG), await tip(r.sim, 'Bo')];
			await until(() => c.current()?.orderId === long && !!c.current()?.audioStartedAt, WAIT);
			const skipped = await api(r.sim, 'POST', '/tts/skip');
			expect(skipped.body).toMatchObject({ success: true, order_id: long });
			const skippedAt = Date.now();
			await until(() => c.playsOf(long)[0].endedAt !== null, WAIT);

			const play = c.playsOf(long)[0];
			expect(play.how).toBe('stopped');
			// Cut short, not played out: it ended well before its audio would have.
			expect(play.endedAt!).toBeLessThan(play.audioStartedAt! + play.durationS! * 1000);
			expect(play.endedAt! - skippedAt).toBeLessThan(2000);
			expect(c.stops.find((s) => s.orderId === long)?.why).toMatch(/skipped/);

			await finished(r.sim, [next]);
			expect(claimCalls(r.sim).map((x) => `${x.op} ${x.orderId} ${x.status}`)).toEqual([
				`start ${long} 200`,
				`start ${next} 200`,
				`finish ${next} 200`
			]);
			expectPlayedOnce([c], [next]);
			expect(c.plays).toHaveLength(2);
		},
		TEST_TIMEOUT
	);

	it(
		'a clear while playing stops the tip, plays nothing more, and tips after it play',
		async () => {
			const r = await rig();
			const c = await syncedConsumer(r);
			const cleared = [
				await tip(r.sim, 'Al', LONG),
				await tip(r.sim, 'Bo'),
				await tip(r.sim, 'Cy')
			];
			await until(() => c.current()?.orderId === cleared[0] && !!c.current()?.audioStartedAt, WAIT);
			expect((await api(r.sim, 'POST', '/tts/clear')).status).toBe(200);
			const clearSeq = lastRequest(r.sim, '/tts/clear').seq;
			await until(() => c.playsOf(cleared[0])[0].endedAt !== null, WAIT);
			expect(c.playsOf(cleared[0])[0].how).toBe('stopped');
			await sleep(1500);

			expect(c.plays).toHaveLength(1);
			expect(claimCalls(r.sim).filter((x) => x.seq > clearSeq)).toEqual([]);
			const queue = await api(r.sim, 'GET', '/tts/queue');
			expect(queue.body).toMatchObject({ items: [], current_order_id: null });
			expect(c.runner.snapshot.items).toEqual([]);
			expect(c.runner.snapshot.mine).toBeNull();

			const after = [await tip(r.sim, 'Di'), await tip(r.sim, 'Ed')];
			await finished(r.sim, after);
			expect(succeeded(r.sim)).toEqual([`start ${cleared[0]}`, ...playedInOrder(after)]);
			expectPlayedOnce([c], after);
			expect(c.plays).toHaveLength(3);
		},
		TEST_TIMEOUT
	);

	it(
		'a tip whose audio is late is claimed only once its audio is ready, then played',
		async () => {
			const r = await rig();
			const c = await syncedConsumer(r);
			r.sim.control.delayAudio(1500);
			const ids = [await tip(r.sim, 'Al'), await tip(r.sim, 'Bo')];
			await finished(r.sim, ids);

			expect(claimCalls(r.sim).map((x) => `${x.op} ${x.orderId}`)).toEqual(playedInOrder(ids));
			expectPlayedOnce([c], ids);
			const readyEvents = r.sim.control.log.events('tip.tts_ready');
			for (const id of ids) {
				const readySeq = readyEvents.find((e) => e.order_id === id)!.seq;
				for (const call of claimCalls(r.sim, id)) expect(call.seq, id).toBeGreaterThan(readySeq);
				expect(c.playsOf(id)[0].mode).toBe('normal');
			}
			// The audio took its 1.5 s, and the consumer waited for it rather than playing text.
			const createdAt = r.sim.control.log.events('tip.created')[0].t;
			expect(claimCalls(r.sim)[0].t - createdAt).toBeGreaterThanOrEqual(1400);
		},
		TEST_TIMEOUT
	);

	it(
		'broken audio is released, retried, then shown as text and finished, and the queue moves on',
		async () => {
			const r = await rig();
			const c = await syncedConsumer(r, { config: { maxFailures: 2 } });
			r.sim.control.breakNextAudio(1);
			const broken = await tip(r.sim, 'Al');
			// Only after its audio is rendered: the break goes to the next rendered tip.
			await ready(r.sim, broken);
			expect(r.sim.control.faults.brokenAudio.get(broken)).toBe('missing');
			const next = await tip(r.sim, 'Bo');
			await finished(r.sim, [broken, next]);

			expect(claimCalls(r.sim).map((x) => `${x.op} ${x.orderId} ${x.status}`)).toEqual([
				`start ${broken} 200`,
				`release ${broken} 200`,
				`start ${broken} 200`,
				`release ${broken} 200`,
				`start ${broken} 200`,
				`finish ${broken} 200`,
				`start ${next} 200`,
				`finish ${next} 200`
			]);
			expect(c.playsOf(broken).map((p) => `${p.mode} ${p.attempt} ${p.how}`)).toEqual([
				'normal 1 failed',
				'normal 2 failed',
				'fallback 3 text'
			]);
			expectPlayedOnce([c], [next]);
			// The queue never stalled: the next tip was done long before a minute had passed.
			const createdAt = r.sim.control.log.events('tip.created')[0].t;
			expect(okCalls(r.sim, 'finish')[1].t - createdAt).toBeLessThan(30_000);
		},
		TEST_TIMEOUT
	);

	it(
		'a reloaded page releases its remembered claim and plays that tip again from the start, once',
		async () => {
			const r = await rig();
			const memory = new VolatileClaimMemory();
			const first = await syncedConsumer(r, { memory });
			const [cut, next] = [await tip(r.sim, 'Al', LONG), await tip(r.sim, 'Bo')];
			await until(
				() => first.current()?.orderId === cut && !!first.current()?.audioStartedAt,
				WAIT
			);
			first.close();
			await until(() => first.playsOf(cut)[0].endedAt !== null, WAIT);
			expect(first.playsOf(cut).map((p) => p.how)).toEqual(['stopped']);
			expect(memory.load()).toBe(cut);
			expect(r.sim.control.model.tts.current).toBe(cut);

			const reloaded = r.consumer({ memory });
			await finished(r.sim, [cut, next]);

			expect(claimCalls(r.sim).map((x) => `${x.op} ${x.orderId} ${x.status}`)).toEqual([
				`start ${cut} 200`,
				`release ${cut} 200`,
				`start ${cut} 200`,
				`finish ${cut} 200`,
				`start ${next} 200`,
				`finish ${next} 200`
			]);
			expectPlayedOnce([reloaded], [cut, next]);
			expect(first.plays).toHaveLength(1);
			const seconds = await audioSeconds(r.sim, cut);
			const [, , again, finish] = claimCalls(r.sim, cut);
			expect(finish.t - again.t).toBeGreaterThanOrEqual(Math.floor(seconds * 1000));
			expect(memory.load()).toBeNull();
		},
		TEST_TIMEOUT
	);

	it(
		'a claim held by nobody alive is taken over after takeoverMs and the queue moves on',
		async () => {
			const r = await rig();
			const ids = [await tip(r.sim, 'Al'), await tip(r.sim, 'Bo')];
			for (const id of ids) await ready(r.sim, id);
			// A crashed rival page: it claimed the head and will never finish or release it.
			expect(r.sim.control.holdRivalClaim('tts')).toBe(ids[0]);
			const c = await syncedConsumer(r, { config: { takeoverMs: 1500 } });
			await finished(r.sim, ids);

			expect(claimCalls(r.sim).map((x) => `${x.op} ${x.orderId} ${x.status}`)).toEqual([
				`release ${ids[0]} 200`,
				...playedInOrder(ids).map((s) => `${s} 200`)
			]);
			const firstSnapshot = r.sim.control.log.requests({ method: 'GET', path: '/tts/queue' })[0];
			const [release] = claimCalls(r.sim, ids[0]);
			expect(release.t - firstSnapshot.t).toBeGreaterThanOrEqual(1500);
			expectPlayedOnce([c], ids);
		},
		TEST_TIMEOUT
	);

	it(
		'duplicated and reordered events change nothing: each tip plays once, in order',
		async () => {
			const r = await rig();
			const c = await syncedConsumer(r);
			r.sim.control.duplicateEvents(100);
			r.sim.control.reorderEvents(100);
			const ids: string[] = [];
			for (const name of ['Al', 'Bo', 'Cy', 'Di']) ids.push(await tip(r.sim, name));
			await finished(r.sim, ids);

			// The faults really applied.
			expect(r.sim.control.faults.events.duplicate).toBeLessThan(100);
			expect(r.sim.control.faults.events.reorder).toBeLessThan(100);
			expect(succeeded(r.sim)).toEqual(playedInOrder(ids));
			expect(claimCalls(r.sim).filter((x) => x.op === 'finish' && x.status !== 200)).toEqual([]);
			expectPlayedOnce([c], ids);
			expect(c.plays.map((p) => p.orderId)).toEqual(ids);
		},
		TEST_TIMEOUT
	);

	it(
		'429 bursts on start lose nothing, wait out RateLimit-Reset and play everything once',
		async () => {
			// A one-second rate window: RateLimit-Reset says 1 s, so the test stays short.
			const r = await rig({ rateWindowMs: 1000 });
			const c = await syncedConsumer(r);
			r.sim.control.failHttp({ status: 429, count: 3, match: '/tts/' });
			const ids = [await tip(r.sim, 'Al'), await tip(r.sim, 'Bo'), await tip(r.sim, 'Cy')];
			await finished(r.sim, ids);

			expect(succeeded(r.sim)).toEqual(playedInOrder(ids));
			expectPlayedOnce([c], ids);
			const limited = r.sim.control.log.requests().filter((e) => e.status === 429);
			expect(limited.map((e) => e.path)).toEqual([
				`/tts/${ids[0]}/start`,
				`/tts/${ids[0]}/start`,
				`/tts/${ids[0]}/start`
			]);
			// No hot loop: each retry waited for the reset, and nothing was asked more than needed.
			const starts = claimCalls(r.sim).filter((x) => x.op === 'start');
			for (let i = 1; i < 4; i++) expect(starts[i].t - starts[i - 1].t).toBeGreaterThanOrEqual(900);
			expect(starts).toHaveLength(ids.length + 3);
			expect(r.sim.control.log.requests({ path: /^\/tts\// }).length).toBeLessThan(15);
		},
		TEST_TIMEOUT
	);
});
