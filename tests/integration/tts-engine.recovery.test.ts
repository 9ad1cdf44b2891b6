// The TTS player's engine end to end (tts-engine.setup.ts): late and broken audio, a reloaded
// page, a claim held by nobody alive, duplicated and reordered events, and 429 bursts each lose
// and double nothing.
import { describe, expect, it } from 'vitest';
import { VolatileClaimMemory } from '../../src/client/claim-memory.ts';
import { until } from '../fixtures/sim.ts';
import {
	WAIT,
	TEST_TIMEOUT,
	LONG,
	rig,
	syncedConsumer,
	tip,
	ready,
	claimCalls,
	succeeded,
	okCalls,
	playedInOrder,
	finished,
	audioSeconds,
	expectPlayedOnce
} from './tts-engine.setup.ts';

describe('the TTS engine against the simulator', () => {
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
