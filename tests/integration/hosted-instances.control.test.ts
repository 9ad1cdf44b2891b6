// The streamer's dock on several hosted instances sharing one PostgreSQL: a
// control key replaced on one instance is refused at once by another; a session's CSRF token made
// on one instance works on another; and two docks pressing Skip or Replay at once on two instances
// act once (the control lock, a PostgreSQL advisory lock). One instance on PGlite:
// hosted-control.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { dockKeyIn } from '../fixtures/hosted.ts';
import {
	dashboard,
	deployment,
	missing,
	PUBLIC,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { racingUpstream, type RacingUpstream } from '../fixtures/racing-upstream.ts';
import { until, type Sim } from '../fixtures/sim.ts';

useDeployments();
let proxy: RacingUpstream | null = null;
afterEach(async () => {
	await proxy?.close();
	proxy = null;
});

const call = (on: HostedApp, method: string, path: string, headers = {}, body?: unknown) =>
	fetch(on.origin + path, {
		method,
		redirect: 'manual',
		headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
		body: body === undefined ? undefined : JSON.stringify(body)
	});

const keyed = (key: string) => ({ 'x-control-key': key });

/** A tip ready to play (its audio rendered). */
async function tip(sim: Sim, name: string): Promise<string> {
	const created = sim.control.createTip({ name, amount: 5, message: `hi ${name}`, paid: true });
	await until(() => sim.control.model.tts.find(created.order_id)?.tts_url != null);
	return created.order_id;
}

/** The same action pressed at once on each instance: the outcomes, sorted. */
async function pressAtOnce(apps: HostedApp[], key: string, action: string, orderId: string) {
	const outcomes = await Promise.all(
		apps.map(async (on) => {
			const res = await call(on, 'POST', `/control/actions/${action}`, keyed(key), {
				order_id: orderId
			});
			expect(res.status).toBe(200);
			return ((await res.json()) as { outcome: string }).outcome;
		})
	);
	return outcomes.sort();
}

const succeeded = (sim: Sim, path: string | RegExp) =>
	sim.control.log.requests({ method: 'POST', path }).filter((r) => r.status === 200).length;

describe.skipIf(missing)('the dock on several hosted instances', { timeout: 150_000 }, () => {
	it('New control key on one instance stops the old dock URL on every instance at once', async () => {
		const { sim, apps } = await deployment(2);
		const [a, b] = apps;
		const cookie = await signIn(sim, a, b);
		const old = dockKeyIn(await dashboard(a, cookie))!;
		for (const on of apps)
			expect((await call(on, 'GET', '/control/api/me', keyed(old))).status).toBe(200);

		// The dashboard's controls: the CSRF token from one instance works on the other.
		const session = await call(a, 'GET', '/control/session', { cookie });
		const { csrf } = (await session.json()) as { csrf: string };
		const asSession = { cookie, 'x-csrf-token': csrf, origin: PUBLIC };
		expect((await call(b, 'POST', '/control/token', asSession)).status).toBe(200);

		const renewed = await call(a, 'POST', '/account/new-control-key', { cookie, origin: PUBLIC });
		expect(renewed.status).toBe(303);
		const fresh = dockKeyIn(await dashboard(b, cookie))!;
		expect(fresh).not.toBe(old);
		for (const on of apps) {
			const refused = await call(on, 'GET', '/control/api/me', keyed(old));
			expect(refused.status).toBe(401);
			expect(((await refused.json()) as { code: string }).code).toBe('control_key_replaced');
			expect((await call(on, 'GET', '/control/api/me', keyed(fresh))).status).toBe(200);
		}
	});

	it('two instances pressing Skip, then Replay, at once for one streamer act once', async () => {
		proxy = await racingUpstream();
		const racing = proxy;
		const { sim, apps } = await deployment(2, undefined, {}, (s) => racing.via(s.baseUrl));
		const [a, b] = apps;
		const cookie = await signIn(sim, a, b);
		const html = await dashboard(a, cookie);
		const overlayKey = /\/widget\/tts\?key=([A-Za-z0-9_-]{43})/.exec(html)![1];
		const controlKey = dockKeyIn(html)!;
		const first = await tip(sim, 'first');
		const second = await tip(sim, 'second');
		// The TTS widget claims the first tip, as it does before reading it aloud.
		const claim = await call(a, 'POST', `/api/tts/${first}/start`, { 'x-overlay-key': overlayKey });
		expect(claim.status).toBe(200);

		racing.arm();
		expect(await pressAtOnce(apps, controlKey, 'tts-skip', first)).toEqual(['already', 'done']);
		expect(succeeded(sim, '/tts/skip')).toBe(1);
		// The second tip, next in line, was not skipped.
		expect(sim.control.model.tts.items.map((t) => t.order_id)).toEqual([second]);

		// The second tip plays to its end; then both instances replay it at once.
		for (const step of ['start', 'finish'])
			expect(
				(await call(b, 'POST', `/api/tts/${second}/${step}`, { 'x-overlay-key': overlayKey }))
					.status
			).toBe(200);
		racing.arm();
		expect(await pressAtOnce(apps, controlKey, 'tts-replay', second)).toEqual(['already', 'done']);
		expect(succeeded(sim, new RegExp(`^/tts/${second}/replay$`))).toBe(1);
		expect(sim.control.model.tts.items.map((t) => [t.name, t.is_replay])).toEqual([
			['second', true]
		]);
	});
});
