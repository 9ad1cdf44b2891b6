// What each dock action does on the upstream (the real simulator over loopback), and that each is
// safe to press twice (docs/dock.md, server routes): a skip stops only the item it names, a
// second press or a second dock finds it done; a replay is queued once.
import { describe, expect, it } from 'vitest';
import { api, readyTip } from '../fixtures/sim.ts';
import { send } from '../fixtures/token-endpoint.ts';
import {
	playedTip,
	playedVideo,
	playingTip,
	playingVideo,
	queuedVideo,
	rig,
	upstreamState
} from './control.setup.ts';

const QUEUES = [
	{ q: 'tts', item: playingTip, played: playedTip, waiting: (s: any) => readyTip(s) },
	{ q: 'media', item: playingVideo, played: playedVideo, waiting: (s: any) => queuedVideo(s) }
] as const;

describe.each(QUEUES)('$q skip', ({ q, item, waiting }) => {
	const skip = `${q}-skip`;
	const idOf = async (w: Promise<any>) => {
		const v = await w;
		return typeof v === 'string' ? v : (v.order_id as string);
	};

	it('stops the item that plays: it leaves the queue and is not in the history', async () => {
		const r = await rig();
		const playing = await item(r.sim);
		const res = await r.act(skip, playing);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ outcome: 'done', message: 'skipped' });
		expect(res.headers.get('cache-control')).toBe('no-store');
		const after = await upstreamState(r.sim, q);
		expect(after.queued).not.toContain(playing);
		expect(after.queue.current_order_id).toBeNull();
		expect(after.played).not.toContain(playing);
		expect(r.sim.control.model[q].disposition(playing)).toBe('skipped');
	});

	it('a second press is already, and the item after it is not skipped', async () => {
		const r = await rig();
		const playing = await item(r.sim);
		const next = await idOf(waiting(r.sim));
		expect((await r.act(skip, playing)).body.outcome).toBe('done');
		const again = await r.act(skip, playing);
		expect(again.status).toBe(200);
		expect(again.body.outcome).toBe('already');
		expect((await upstreamState(r.sim, q)).queued).toEqual([next]);
	});

	it('refuses an item that waits (409 not_playing) and skips nothing', async () => {
		const r = await rig();
		const playing = await item(r.sim);
		const next = await idOf(waiting(r.sim));
		const res = await r.act(skip, next);
		expect(res.status).toBe(409);
		expect(res.body.code).toBe('not_playing');
		expect(res.body.error).toMatch(/waiting, not playing: remove it instead/);
		expect((await upstreamState(r.sim, q)).queued).toEqual([playing, next]);
		expect(r.calls.filter((c) => c.endsWith('/skip'))).toEqual([]);
	});

	it('two docks pressing at once skip once: the next item keeps its place', async () => {
		const r = await rig();
		const playing = await item(r.sim);
		const next = await idOf(waiting(r.sim));
		const answers = await Promise.all([r.act(skip, playing), r.act(skip, playing)]);
		expect(answers.map((a) => a.body.outcome).sort()).toEqual(['already', 'done']);
		expect((await upstreamState(r.sim, q)).queued).toEqual([next]);
		expect(r.calls.filter((c) => c === `POST /${q}/skip`)).toHaveLength(1);
	});
});

describe.each(QUEUES)('$q remove', ({ q, waiting }) => {
	it('removes a waiting item; pressed twice, the second is already', async () => {
		const r = await rig();
		const first = await waiting(r.sim);
		const id = typeof first === 'string' ? first : first.order_id;
		const res = await r.act(`${q}-remove`, id);
		expect(res.body).toEqual({ outcome: 'done', message: 'removed from the queue' });
		expect((await upstreamState(r.sim, q)).queued).toEqual([]);
		const again = await r.act(`${q}-remove`, id);
		expect(again.status).toBe(200);
		expect(again.body).toEqual({ outcome: 'already', message: 'no longer in the queue' });
	});
});

describe.each(QUEUES)('$q replay', ({ q, played }) => {
	const replays = async (r: Awaited<ReturnType<typeof rig>>) =>
		(await upstreamState(r.sim, q)).queue.items.filter(
			(i: { is_replay: boolean }) => i.is_replay || q === 'media'
		);

	it('queues the played item again; pressed twice, once', async () => {
		const r = await rig();
		const id = await played(r.sim);
		expect((await r.act(`${q}-replay`, id)).body).toEqual({
			outcome: 'done',
			message: 'queued again'
		});
		const again = await r.act(`${q}-replay`, id);
		expect(again.body).toEqual({ outcome: 'already', message: 'already queued again' });
		expect(await replays(r)).toHaveLength(1);
	});

	it('two docks pressing at once queue one replay', async () => {
		const r = await rig();
		const id = await played(r.sim);
		const answers = await Promise.all([r.act(`${q}-replay`, id), r.act(`${q}-replay`, id)]);
		expect(answers.map((a) => a.body.outcome).sort()).toEqual(['already', 'done']);
		expect(await replays(r)).toHaveLength(1);
	});

	it('answers 404 not_found for an order that was never played', async () => {
		const r = await rig();
		const res = await r.act(`${q}-replay`, `${q === 'tts' ? 'tip' : 'med'}_never_played`);
		expect(res.status).toBe(404);
		expect(res.body.code).toBe('not_found');
		expect((await upstreamState(r.sim, q)).queued).toEqual([]);
	});
});

describe('the TTS replay', () => {
	it('is read again through the normal claim, and can be replayed again once it has played', async () => {
		const r = await rig();
		const id = await playedTip(r.sim, { name: 'Ada', message: 'read me again' });
		await r.act('tts-replay', id);
		const [replay] = (await upstreamState(r.sim, 'tts')).queue.items;
		expect(replay).toMatchObject({ is_replay: true, name: 'Ada', message: 'read me again' });
		expect((await api(r.sim, 'POST', `/tts/${replay.order_id}/start`)).status).toBe(200);
		// While the replay plays it is still queued: another press is already.
		expect((await r.act('tts-replay', id)).body.outcome).toBe('already');
		expect((await api(r.sim, 'POST', `/tts/${replay.order_id}/finish`)).status).toBe(200);
		expect((await r.act('tts-replay', id)).body.outcome).toBe('done');
	});
});

describe('pause and resume', () => {
	it('a paused TTS queue refuses the next start (409 queue_paused) until resumed', async () => {
		const r = await rig();
		const tip = await readyTip(r.sim);
		expect((await r.act('tts-pause')).body).toEqual({
			outcome: 'done',
			message: 'TTS queue paused'
		});
		const start = await send(r.app, 'POST', `/api/tts/${tip.order_id}/start`);
		expect(start.status).toBe(409);
		expect(await start.json()).toMatchObject({ code: 'queue_paused' });
		expect((await r.act('tts-resume')).body.outcome).toBe('done');
		expect((await send(r.app, 'POST', `/api/tts/${tip.order_id}/start`)).status).toBe(200);
	});

	it('a paused media queue refuses the next start until resumed', async () => {
		const r = await rig();
		const video = await queuedVideo(r.sim);
		expect((await r.act('media-pause')).body.outcome).toBe('done');
		expect((await r.dock('GET', '/control/api/media/queue')).body.is_paused).toBe(true);
		const start = await send(r.app, 'POST', `/api/media/${video}/start`);
		expect(start.status).toBe(409);
		expect(await start.json()).toMatchObject({ code: 'queue_paused' });
		expect((await r.act('media-resume')).body.outcome).toBe('done');
		expect((await send(r.app, 'POST', `/api/media/${video}/start`)).status).toBe(200);
	});
});

describe('show, hide and tipping', () => {
	it('hide and show set the video player visible flag the widgets read', async () => {
		const r = await rig();
		expect((await r.act('media-hide')).body.outcome).toBe('done');
		expect((await r.dock('GET', '/control/api/media/queue')).body.visible).toBe(false);
		expect((await r.act('media-show')).body.outcome).toBe('done');
		expect((await r.dock('GET', '/control/api/media/queue')).body.visible).toBe(true);
	});

	it('close stops new tips, open lets them in again', async () => {
		const r = await rig();
		expect((await r.act('tipping-close')).body.outcome).toBe('done');
		expect((await r.dock('GET', '/control/api/tipping')).body).toEqual({ accepting: false });
		expect((await r.act('tipping-open')).body.outcome).toBe('done');
		expect((await r.dock('GET', '/control/api/tipping')).body).toEqual({ accepting: true });
	});
});

describe('the requests the dock may not make', () => {
	it.each([
		['no body', undefined],
		['a body that is not JSON', 'order_id=tip_1'],
		['no order id', {}],
		['an order id with a slash', { order_id: 'tip_1/../skip' }],
		['an order id with dots', { order_id: '..' }],
		['an order id of another type', { order_id: 7 }],
		['an array', [{ order_id: 'tip_1' }]]
	])('an action on an order with %s is 400 bad_request, with no upstream call', async (_, body) => {
		const r = await rig();
		const res = await r.dock('POST', '/control/actions/tts-remove', { body });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('bad_request');
		expect(r.calls).toEqual([]);
	});

	it('an action with nothing to name takes no body but {}', async () => {
		const r = await rig();
		expect((await r.dock('POST', '/control/actions/tts-pause', { body: {} })).status).toBe(200);
		const res = await r.dock('POST', '/control/actions/tts-resume', { body: { order_id: 'x' } });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('bad_request');
	});

	it('an action with nothing to name takes an empty body sent as JSON', async () => {
		const r = await rig();
		const headers = { 'content-type': 'application/json' };
		expect((await r.dock('POST', '/control/actions/tts-pause', { headers })).status).toBe(200);
		const res = await r.dock('POST', '/control/actions/tts-remove', { headers });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('bad_request');
	});

	it('an unknown action is 404 not_found', async () => {
		const r = await rig();
		for (const name of ['tts-clear', 'constructor', '__proto__', 'TTS-SKIP']) {
			const res = await r.dock('POST', `/control/actions/${name}`);
			expect(res.status, name).toBe(404);
			expect(res.body.code, name).toBe('not_found');
		}
		expect(r.calls).toEqual([]);
	});

	it('a body over the limit is 413 before it is read', async () => {
		const r = await rig();
		const body = JSON.stringify({ order_id: 'tip_1', pad: 'x'.repeat(20_000) });
		const res = await r.dock('POST', '/control/actions/tts-remove', { body });
		expect(res.status).toBe(413);
		expect(r.calls).toEqual([]);
	});
});
