// Videos moderated like tips, single mode against the real simulator (docs/moderation.md,
// "Videos"): a held or removed tip's video is held or removed with it, the video rules decide by
// title, channel, link and length, no copy can start a video that is not decided to play, and an
// approved one plays once.
import { describe, expect, it } from 'vitest';
import { api, until } from '../fixtures/sim.ts';
import { openLive } from '../fixtures/token-endpoint.ts';
import { pageCall, rig, withRules, type Rig } from './control.setup.ts';

const page = pageCall;

/** A viewer's tip that requests a demo video; the tip's (and its video's) order id. */
function tipWithVideo(
	r: Rig,
	o: { name?: string; amount?: number; message?: string; title?: string; url?: string } = {}
): string {
	const url = o.url ?? `${r.sim.origin}/demo/countdown.webm`;
	const tip = r.sim.control.model.createTip({
		name: o.name ?? 'Viewer',
		amount: o.amount ?? 5,
		message: o.message ?? 'play this please',
		paid: true,
		source: 'test',
		media: { url, title: o.title ?? 'A countdown', duration: 30, requested_via: 'tip' }
	});
	return tip.order_id;
}

const listed = async (r: Rig, orderId: string, who: 'page' | 'dock' = 'page') => {
	const q =
		who === 'page'
			? await page(r, 'GET', '/api/media/queue')
			: await r.dock('GET', '/control/api/media/queue');
	expect(q.status).toBe(200);
	return q.body.items.find((m: { order_id: string }) => m.order_id === orderId);
};

const starts = (r: Rig, orderId: string) =>
	r.calls.filter((c) => c === `POST /media/${orderId}/start`).length;

describe('a video follows its tip', () => {
	it('with no rules a tip’s video plays, its title given to the page', async () => {
		const r = await rig();
		const id = tipWithVideo(r);
		const got = await listed(r, id);
		expect(got.moderation).toEqual({ outcome: 'read', message: 'shown' });
		expect(got.video_title).toBe('A countdown');
		expect((await page(r, 'POST', `/api/media/${id}/start`)).status).toBe(200);
	});

	it('a held tip’s video is never started by any copy until the tip is approved, then once', async () => {
		const r = await rig();
		await withRules(r, { words: [{ text: 'badword', outcome: 'hold' }] });
		const id = tipWithVideo(r, { message: 'say b4dw0rd' });
		const got = await listed(r, id);
		expect(got.moderation).toEqual({ outcome: 'hold', message: 'hidden' });
		expect(got.video_title).toBeNull();
		expect(got.video_thumbnail).toBeNull();
		// Two copies try: both refused without a call to the upstream.
		for (let copy = 0; copy < 2; copy++) {
			const tried = await page(r, 'POST', `/api/media/${id}/start`);
			expect(tried.status).toBe(409);
			expect(tried.body.code).toBe('held');
		}
		expect(starts(r, id)).toBe(0);
		// The dock sees why: its tip.
		expect((await listed(r, id, 'dock')).moderation.rule).toEqual({ kind: 'tip' });

		const approved = await r.dock('POST', '/control/moderation/approve', {
			body: { order_id: id }
		});
		expect(approved.body.outcome).toBe('done');
		expect((await listed(r, id)).moderation.outcome).toBe('read');
		const results = await Promise.all([
			page(r, 'POST', `/api/media/${id}/start`),
			page(r, 'POST', `/api/media/${id}/start`)
		]);
		expect(results.map((x) => x.status).sort()).toEqual([200, 409]);
		expect(results.find((x) => x.status === 409)?.body.code).toBe('already_playing');
	});

	it('a start before anyone read the video is decided from its answer and given back', async () => {
		const r = await rig();
		await withRules(r, { everyTip: 'hold' });
		const id = tipWithVideo(r);
		const started = await page(r, 'POST', `/api/media/${id}/start`);
		expect(started.status).toBe(409);
		expect(started.body.code).toBe('held');
		expect(r.calls).toContain(`POST /media/${id}/release`);
		expect((await api(r.sim, 'GET', '/media/queue')).body.current_order_id).toBeNull();
	});

	it('a removed tip’s video is left out and deleted upstream', async () => {
		const r = await rig();
		await withRules(r, { words: [{ text: 'slur', outcome: 'remove' }] });
		const id = tipWithVideo(r, { message: 'a ѕlur here' });
		expect(await listed(r, id)).toBeUndefined();
		await until(() => r.sim.control.model.media.find(id) === undefined);
		expect(r.calls).toContain(`DELETE /media/${id}`);
	});

	it('Reject of the tip removes the video held with it', async () => {
		const r = await rig();
		await withRules(r, { everyTip: 'hold' });
		const id = tipWithVideo(r);
		await listed(r, id);
		await r.dock('POST', '/control/moderation/reject', { body: { order_id: id } });
		expect(await listed(r, id)).toBeUndefined();
		await until(() => r.sim.control.model.media.find(id) === undefined);
	});

	it('a video whose tip cannot be read now waits undecided, and is decided once it can', async () => {
		const r = await rig();
		await withRules(r, { everyTip: 'hold' });
		const id = tipWithVideo(r);
		r.sim.control.failHttp({ status: 502, count: 10, match: '/tts' });
		const waiting = await listed(r, id);
		expect(waiting.moderation.outcome).toBe('pending');
		expect(waiting.video_title).toBeNull();
		expect((await page(r, 'POST', `/api/media/${id}/start`)).status).toBe(503);
		expect(r.sim.control.model.media.find(id)).toBeDefined();
		r.sim.control.failHttp({ status: 502, count: 0 });
		expect((await listed(r, id)).moderation.outcome).toBe('hold');
	});
});

describe('the video rules', () => {
	it('a blocked word in the title holds the video; Approve of the video plays it once', async () => {
		const r = await rig();
		await withRules(r, { videos: { words: [{ text: 'scary', outcome: 'hold' }] } });
		const id = tipWithVideo(r, { title: 'SC4RY jumpscare' });
		const got = await listed(r, id, 'dock');
		expect(got.moderation).toMatchObject({
			outcome: 'hold',
			rule: { kind: 'title', text: 'scary' }
		});
		expect(got.video_title).toBe('SC4RY jumpscare');
		expect((await page(r, 'POST', `/api/media/${id}/start`)).body.code).toBe('held');
		// Approving the tip does not approve a video held by its own rule.
		await r.dock('POST', '/control/moderation/approve', { body: { order_id: id } });
		expect((await listed(r, id)).moderation.outcome).toBe('hold');
		const approved = await r.dock('POST', '/control/moderation/approve', {
			body: { order_id: id, queue: 'media' }
		});
		expect(approved.status).toBe(200);
		expect(approved.body.outcome).toBe('done');
		expect((await page(r, 'POST', `/api/media/${id}/start`)).status).toBe(200);
		expect((await page(r, 'POST', `/api/media/${id}/finish`)).status).toBe(200);
		expect(starts(r, id)).toBe(1);
	});

	it('a blocked link removes a video queued from chat too; Reject of a held video removes it', async () => {
		const r = await rig();
		await withRules(r, {
			videos: {
				links: [{ text: `${new URL(r.sim.origin).host}/demo/countdown.webm`, outcome: 'remove' }],
				every: 'hold'
			}
		});
		const fromChat = (file: string) =>
			r.sim.control.model.enqueueMedia(
				{ url: `${r.sim.origin}/demo/${file}.webm` },
				'chatter',
				undefined,
				undefined,
				'chat'
			).order_id;
		const blocked = fromChat('countdown');
		expect(await listed(r, blocked, 'dock')).toBeUndefined();
		const held = fromChat('bars');
		expect((await listed(r, held, 'dock')).moderation.rule).toEqual({ kind: 'every_video' });
		await r.dock('POST', '/control/moderation/reject', {
			body: { order_id: held, queue: 'media' }
		});
		expect(await listed(r, held, 'dock')).toBeUndefined();
		await until(() => r.sim.control.model.media.find(held) === undefined);
		// A video the streamer queued (requested via admin) is theirs: no rule holds it.
		const own = await api(r.sim, 'POST', '/media/queue', {
			body: { url: `${r.sim.origin}/demo/bars.webm` }
		});
		expect((await listed(r, own.body.media.order_id, 'dock')).moderation.outcome).toBe('read');
	});

	it('refuses a video rule that does not parse, naming the field', async () => {
		const r = await rig();
		const bad = await r.dock('PUT', '/control/moderation', {
			body: { videos: { maxSeconds: { seconds: 0, outcome: 'hold' } } }
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error).toMatch(/videos\.maxSeconds\.seconds/);
		const noVoice = await r.dock('PUT', '/control/moderation', {
			body: { videos: { every: 'no_voice' } }
		});
		expect(noVoice.status).toBe(400);
	});

	it('the page’s push channel hears a video’s approval, naming the media queue', async () => {
		const r = await rig();
		await withRules(r, { videos: { every: 'hold' } });
		const id = tipWithVideo(r);
		await listed(r, id);
		const live = await openLive(r.app);
		await live.until('"hello"');
		await r.dock('POST', '/control/moderation/approve', { body: { order_id: id, queue: 'media' } });
		await live.until(id);
		expect(live.text()).toContain(`{"type":"decision","order_id":"${id}","queue":"media"}`);
		await live.close();
	});
});
