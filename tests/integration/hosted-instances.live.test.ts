// Moderation through two hosted instances on one PostgreSQL: a tip or video read on either
// instance gets the same decision, an approval given through one instance's dock reaches a page's
// push channel (GET /live) on the other, and the other then lets it play; a held tip's video is
// started by no copy on either instance until then, and once after. The store itself across
// instances: hosted-instances.moderation.test.ts.
import { describe, expect, it } from 'vitest';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { dockKeyIn, keyIn } from '../fixtures/hosted.ts';
import {
	call,
	dashboard,
	deployment,
	missing,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { openLiveAt } from '../fixtures/token-endpoint.ts';
import { until, type Sim } from '../fixtures/sim.ts';

useDeployments();

async function tip(sim: Sim, message: string): Promise<string> {
	const created = sim.control.createTip({ name: 'Viewer', amount: 5, message, paid: true });
	await until(() => sim.control.model.tts.find(created.order_id)?.tts_url != null);
	return created.order_id;
}

/** The tip as a page reads it through `on`. */
async function pageTip(on: HostedApp, key: string, orderId: string) {
	const res = await call(on, 'GET', '/api/tts/queue', { 'x-overlay-key': key });
	const body = (await res.json()) as { items: { order_id: string; moderation: unknown }[] };
	return body.items.find((t) => t.order_id === orderId);
}

/** A page's push channel on `on`: what it has heard so far (`heard.text`). */
const listen = (on: HostedApp, key: string) => openLiveAt(on.origin, key);

/** A page's call through `on` with the overlay key. */
const asPage = (on: HostedApp, key: string, method: string, path: string) =>
	call(on, method, path, { 'x-overlay-key': key });

describe.skipIf(missing)('moderation on several hosted instances', { timeout: 150_000 }, () => {
	it('one decision on both, and an approval on one instance reaches a page on the other', async () => {
		const { sim, apps } = await deployment(2);
		const [a, b] = apps;
		const cookie = await signIn(sim, a, b);
		const page = await dashboard(a, cookie);
		const overlayKey = keyIn(page)!;
		const controlKey = dockKeyIn(page)!;
		const dock = { 'x-control-key': controlKey };

		const saved = await call(a, 'PUT', '/control/moderation', dock, { everyTip: 'hold' });
		expect(saved.status).toBe(200);
		const held = await tip(sim, 'wait for me');
		expect((await pageTip(b, overlayKey, held))?.moderation).toEqual({
			outcome: 'hold',
			message: 'hidden'
		});
		expect((await pageTip(a, overlayKey, held))?.moderation).toEqual({
			outcome: 'hold',
			message: 'hidden'
		});
		const refused = await call(b, 'POST', `/api/tts/${held}/start`, {
			'x-overlay-key': overlayKey
		});
		expect(refused.status).toBe(409);

		const live = await listen(b, overlayKey);
		const approved = await call(a, 'POST', '/control/moderation/approve', dock, { order_id: held });
		expect(((await approved.json()) as { outcome: string }).outcome).toBe('done');
		await until(() => live.heard.text.includes(`"order_id":"${held}"`));
		await live.close();
		expect((await pageTip(b, overlayKey, held))?.moderation).toEqual({
			outcome: 'read',
			message: 'shown'
		});
		const started = await call(b, 'POST', `/api/tts/${held}/start`, {
			'x-overlay-key': overlayKey
		});
		expect(started.status).toBe(200);
	});

	it('a held tip’s video is started by no copy on either instance until approved, then once', async () => {
		const { sim, apps } = await deployment(2);
		const [a, b] = apps;
		const cookie = await signIn(sim, a, b);
		const page = await dashboard(a, cookie);
		const overlayKey = keyIn(page)!;
		const dock = { 'x-control-key': dockKeyIn(page)! };
		await call(a, 'PUT', '/control/moderation', dock, {
			fromAmount: { amount: 50, outcome: 'hold' }
		});
		const created = sim.control.createTip({
			name: 'Big',
			amount: 100,
			message: 'a big one',
			paid: true,
			media: { url: `${sim.origin}/demo/countdown.webm`, title: 'Countdown', duration: 30 }
		});
		const id = created.order_id;
		// Copies on both instances try it at once, before anyone read it.
		const tries = await Promise.all(
			[a, b, a, b].map((on) => asPage(on, overlayKey, 'POST', `/api/media/${id}/start`))
		);
		expect(tries.map((r) => r.status)).toEqual([409, 409, 409, 409]);
		const listed = await asPage(b, overlayKey, 'GET', '/api/media/queue');
		const video = (
			(await listed.json()) as { items: { order_id: string; moderation: unknown }[] }
		).items.find((m) => m.order_id === id);
		expect(video?.moderation).toEqual({ outcome: 'hold', message: 'hidden' });
		expect(sim.control.model.media.find(id)).toBeDefined();
		expect(sim.control.model.media.current).toBeNull();

		const live = await listen(b, overlayKey);
		await call(a, 'POST', '/control/moderation/approve', dock, { order_id: id });
		await until(() => live.heard.text.includes(`"order_id":"${id}","queue":"media"`));
		await live.close();
		const after = await Promise.all(
			[a, b].map((on) => asPage(on, overlayKey, 'POST', `/api/media/${id}/start`))
		);
		expect(after.map((r) => r.status).sort()).toEqual([200, 409]);
	});
});
