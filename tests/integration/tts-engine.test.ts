// The TTS player's engine end to end, without Svelte: real simulator, real token endpoint, real
// WebSocket, the claim reducer and its runner, and TimedAudioPort playing each WAV for its real
// length (tts-engine.setup.ts). Order, two consumers, a socket drop, pause, skip and clear;
// recovery from late or broken audio, reloads, takeovers and faults is in
// tts-engine.recovery.test.ts.
import { describe, expect, it } from 'vitest';
import { api, until } from '../fixtures/sim.ts';
import {
	WAIT,
	TEST_TIMEOUT,
	LONG,
	rig,
	syncedConsumer,
	tip,
	claimCalls,
	succeeded,
	lastRequest,
	okCalls,
	playedInOrder,
	finished,
	audioSeconds,
	expectPlayedOnce,
	sleep
} from './tts-engine.setup.ts';

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
});
