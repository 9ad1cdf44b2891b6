// The streamer's dock in hosted mode, on the hosted demo with two demo streamers:
// the dashboard gives each a dock URL with their own control key; every /control route refuses an
// overlay key, a guessed key, another streamer's session token, a session without its CSRF token
// and a POST from another site, without calling the upstream; one streamer's key or session never
// acts on the other's queues; New control key and Disconnect stop the old dock URL at once; two
// docks pressing Skip at once skip once. Several instances on PostgreSQL:
// hosted-instances.control.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { CONTROL_ACTIONS } from '../../src/server/control-actions.ts';
import { DEMO_TENANTS } from '../../src/sim/index.ts';
import { Browser, dockKeyIn, keyIn, startHosted } from '../fixtures/hosted.ts';
import { racingUpstream, type RacingUpstream } from '../fixtures/racing-upstream.ts';
import { simsPerTest, until, type Sim } from '../fixtures/sim.ts';

const start = simsPerTest();
let hosted: HostedApp | null = null;
let proxy: RacingUpstream | null = null;
afterEach(async () => {
	await hosted?.close();
	await proxy?.close();
	hosted = null;
	proxy = null;
});

interface Signed {
	tenant: (typeof DEMO_TENANTS)[number];
	browser: Browser;
	overlayKey: string;
	controlKey: string;
	dashboard: string;
}

/** Each wrong attempt from an address of its own: the wrong-key limiter is tested on its own. */
let client = 0;
const nextClient = () => `10.0.${Math.floor(++client / 250)}.${client % 250}`;

async function twoSignedIn(baseUrl?: (sim: Sim) => string) {
	const sim = await start({ tenants: DEMO_TENANTS });
	const h = await startHosted(sim, { baseUrl: baseUrl?.(sim) });
	hosted = h;
	const signed: Signed[] = [];
	for (const tenant of DEMO_TENANTS.slice(0, 2)) {
		const browser = new Browser(h.publicUrl);
		await browser.signIn(sim, tenant.id);
		const dashboard = await browser.dashboard();
		signed.push({
			tenant,
			browser,
			dashboard,
			overlayKey: keyIn(dashboard)!,
			controlKey: dockKeyIn(dashboard)!
		});
	}
	/** A call as a dock or a widget makes it: headers given, a JSON body when there is one. */
	const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
		fetch(h.publicUrl + path, {
			method,
			headers: {
				'x-forwarded-for': nextClient(),
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers
			},
			body: body === undefined ? undefined : JSON.stringify(body)
		});
	return { sim, h, a: signed[0], b: signed[1], call };
}

/** A tip for a demo streamer, ready to play (its audio rendered). */
async function tipFor(sim: Sim, tenantId: string, name: string): Promise<string> {
	const tip = sim.control.createTip(
		{ name, amount: 5, message: `hello ${name}`, paid: true },
		tenantId
	);
	await until(() => sim.control.tenant(tenantId).tts.find(tip.order_id)?.tts_url != null);
	return tip.order_id;
}

/** Every /control call the dock makes: the token, the reads, each action (with an order id). */
function controlCalls(orderId: string): [string, string, unknown?][] {
	return [
		['POST', '/control/token'],
		...['me', 'tts/queue', 'tts/history', 'media/queue', 'media/history', 'tipping'].map(
			(p): [string, string] => ['GET', `/control/api/${p}`]
		),
		...Object.entries(CONTROL_ACTIONS).map(([name, action]): [string, string, unknown?] => [
			'POST',
			`/control/actions/${name}`,
			action.order ? { order_id: orderId } : undefined
		])
	];
}

const codeOf = async (res: Response) => ((await res.json()) as { code?: string }).code;
const ttsQueue = async (call: Call, key: string) =>
	(await (await call('GET', '/control/api/tts/queue', { 'x-control-key': key })).json()) as {
		current_order_id: string | null;
		items: { order_id: string }[];
	};
type Call = Awaited<ReturnType<typeof twoSignedIn>>['call'];

/** A signed-in browser's /control headers: its cookie, its CSRF token, our Origin. */
async function sessionHeaders(s: Signed): Promise<Record<string, string>> {
	const res = await s.browser.go('GET', '/control/session');
	expect(res.status).toBe(200);
	expect(res.headers.get('cache-control')).toBe('no-store');
	const { csrf } = (await res.json()) as { csrf: string };
	return { cookie: s.browser.cookie, 'x-csrf-token': csrf, origin: s.browser.publicUrl };
}

describe('the dock in hosted mode', { timeout: 150_000 }, () => {
	it('the dashboard gives each streamer a dock URL with their own control key, and the controls at /dock', async () => {
		const { a, b } = await twoSignedIn();
		for (const [me, other] of [
			[a, b],
			[b, a]
		]) {
			expect(me.controlKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
			expect(me.controlKey).not.toBe(me.overlayKey);
			expect(me.dashboard).toContain(`${me.browser.publicUrl}/dock?key=${me.controlKey}</code>`);
			expect(me.dashboard).toContain('<a class="button" href="/dock">Open the controls</a>');
			// The rules and held tips are in the dock: the link opens its Rules section.
			expect(me.dashboard).toContain('<a href="/dock#rules" data-rules-link>the rules</a>');
			// The settings editor, with the signed-in session (no key in its link).
			expect(me.dashboard).toContain('<a class="button" href="/editor" data-settings-link>');
			expect(me.dashboard).toContain('Docks › Custom Browser Docks');
			expect(me.dashboard).toContain('action="/account/new-control-key"');
			expect(me.dashboard).not.toContain(other.controlKey);
			// The overlay and widget URLs carry the overlay key only.
			expect(me.dashboard).not.toMatch(new RegExp(`/(overlay|widget)/[^"<]*${me.controlKey}`));
		}
	});

	it('every /control route refuses an overlay key, a guessed key and no credential, with no upstream call', async () => {
		const { sim, a, b, call } = await twoSignedIn();
		const tip = await tipFor(sim, a.tenant.id, 'fan');
		const before = sim.control.log.requests().length;
		const wrong: [string, Record<string, string>][] = [
			['the overlay key as a control key', { 'x-control-key': a.overlayKey }],
			['the overlay key as a widget sends it', { 'x-overlay-key': a.overlayKey }],
			['a guessed key', { 'x-control-key': 'A'.repeat(43) }],
			['another streamer’s overlay key', { 'x-control-key': b.overlayKey }],
			['nothing', {}]
		];
		for (const [, headers] of wrong)
			for (const [method, path, body] of controlCalls(tip)) {
				const res = await call(method, path, headers, body);
				expect([path, res.status, await codeOf(res)]).toEqual([path, 401, 'bad_control_key']);
			}
		expect(sim.control.log.requests().length).toBe(before);
		// The control key opens neither the widgets' /token nor their /api.
		for (const [method, path] of [
			['POST', '/token'],
			['GET', '/api/tts/queue']
		]) {
			const res = await call(method, path, { 'x-overlay-key': a.controlKey });
			expect([path, res.status, await codeOf(res)]).toEqual([path, 401, 'bad_overlay_key']);
		}
		expect(sim.control.log.requests().length).toBe(before);
		expect(sim.control.tenant(a.tenant.id).tts.find(tip)).toBeDefined();
	});

	it('wrong control keys count in the same limit as wrong overlay keys, per client; right keys and the session are served', async () => {
		const { a, call } = await twoSignedIn();
		const from = { 'x-forwarded-for': '198.51.100.7' };
		for (let i = 0; i < 10; i++) {
			const res = await call('GET', '/control/api/me', {
				...from,
				'x-control-key': `${i}`.repeat(43)
			});
			expect(res.status).toBe(401);
		}
		const wrong = await call('GET', '/control/api/me', {
			...from,
			'x-control-key': 'z'.repeat(43)
		});
		expect([wrong.status, await codeOf(wrong)]).toEqual([429, 'too_many_attempts']);
		const wrongMint = await call('POST', '/token', { ...from, 'x-overlay-key': 'z'.repeat(43) });
		expect(wrongMint.status).toBe(429);
		// The same address with the right keys, and with the signed-in session: served.
		const control = await call('GET', '/control/api/me', {
			...from,
			'x-control-key': a.controlKey
		});
		expect(control.status).toBe(200);
		const mint = await call('POST', '/token', { ...from, 'x-overlay-key': a.overlayKey });
		expect(mint.status).toBe(200);
		const session = await call('POST', '/control/actions/tts-pause', {
			...from,
			...(await sessionHeaders(a))
		});
		expect(session.status).toBe(200);
		// Another client's first wrong key is its own first.
		expect((await call('GET', '/control/api/me', { 'x-control-key': 'z'.repeat(43) })).status).toBe(
			401
		);
	});

	it('a streamer’s key or session acts on their own queues only', async () => {
		const { sim, a, b, call } = await twoSignedIn();
		const tipA = await tipFor(sim, a.tenant.id, 'fan_of_a');
		const tipB = await tipFor(sim, b.tenant.id, 'fan_of_b');
		const paused = async (key: string) =>
			(
				(await (
					await call('GET', '/control/api/media/queue', { 'x-control-key': key })
				).json()) as {
					is_paused: boolean;
				}
			).is_paused;

		// B's key pauses B's media queue, not A's; B's key cannot remove A's tip.
		const pause = await call('POST', '/control/actions/media-pause', {
			'x-control-key': b.controlKey
		});
		expect(await pause.json()).toMatchObject({ outcome: 'done' });
		expect([await paused(b.controlKey), await paused(a.controlKey)]).toEqual([true, false]);
		const me = await call('GET', '/control/api/me', { 'x-control-key': b.controlKey });
		expect(((await me.json()) as { tenant: { id: string } }).tenant.id).toBe(b.tenant.id);
		await call(
			'POST',
			'/control/actions/tts-remove',
			{ 'x-control-key': b.controlKey },
			{ order_id: tipA }
		);
		expect((await ttsQueue(call, a.controlKey)).items.map((t) => t.order_id)).toEqual([tipA]);

		// B's session: with B's CSRF token it acts on B; with A's token, or with an overlay key of
		// A's beside it, on nothing.
		const asB = await sessionHeaders(b);
		const asA = await sessionHeaders(a);
		expect(asA['x-csrf-token']).not.toBe(asB['x-csrf-token']);
		const before = sim.control.log.requests().length;
		for (const headers of [
			{ ...asB, 'x-csrf-token': asA['x-csrf-token'] },
			{ ...asB, 'x-control-key': a.overlayKey },
			{ ...asA, 'x-csrf-token': asB['x-csrf-token'] }
		]) {
			const res = await call('POST', '/control/actions/tts-remove', headers, { order_id: tipA });
			expect(res.status).toBe(401);
			expect((await call('GET', '/control/api/me', headers)).status).toBe(401);
		}
		expect(sim.control.log.requests().length).toBe(before);
		const removeA = await call('POST', '/control/actions/tts-remove', asB, { order_id: tipA });
		expect(await removeA.json()).toMatchObject({ outcome: 'already' });
		expect((await ttsQueue(call, a.controlKey)).items.map((t) => t.order_id)).toEqual([tipA]);
		const removeB = await call('POST', '/control/actions/tts-remove', asB, { order_id: tipB });
		expect(await removeB.json()).toMatchObject({ outcome: 'done' });
		expect((await ttsQueue(call, b.controlKey)).items).toEqual([]);
		expect(await paused(a.controlKey)).toBe(false);
	});

	it('the dashboard session works for /control only with its CSRF token, and a POST only from our origin', async () => {
		const { sim, a, call } = await twoSignedIn();
		expect((await call('GET', '/control/session', {})).status).toBe(401);
		const session = await sessionHeaders(a);
		const { cookie, origin } = session;
		const before = sim.control.log.requests().length;
		const partial: Record<string, string>[] = [
			{ cookie },
			{ cookie, 'x-csrf-token': 'B'.repeat(43) },
			{ cookie, 'x-csrf-token': '' },
			{ 'x-csrf-token': session['x-csrf-token'] }
		];
		for (const headers of partial) {
			expect((await call('GET', '/control/api/me', headers)).status).toBe(401);
			expect(
				(await call('POST', '/control/actions/media-pause', { ...headers, origin })).status
			).toBe(401);
		}
		// With the token: from another site a POST is refused before anything is read (403, counted
		// nowhere), with no Origin at all it is refused as a wrong credential.
		const { origin: _ours, ...noOrigin } = session;
		const foreign = { ...session, origin: 'https://evil.example' };
		expect((await call('POST', '/control/actions/media-pause', foreign)).status).toBe(403);
		expect((await call('POST', '/control/actions/media-pause', noOrigin)).status).toBe(401);
		expect(sim.control.log.requests().length).toBe(before);
		expect(sim.control.tenant(a.tenant.id).media.paused).toBe(false);

		const me = await call('GET', '/control/api/me', session);
		expect(((await me.json()) as { tenant: { id: string } }).tenant.id).toBe(a.tenant.id);
		const pause = await call('POST', '/control/actions/media-pause', session);
		expect(await pause.json()).toMatchObject({ outcome: 'done' });
		expect(sim.control.tenant(a.tenant.id).media.paused).toBe(true);
		expect((await call('POST', '/control/token', session)).status).toBe(200);

		// Signed out: the cookie and its token act on nothing.
		expect((await a.browser.post('/auth/signout')).status).toBe(303);
		expect((await call('GET', '/control/api/me', session)).status).toBe(401);
	});

	it('New control key stops the old dock URL at once; Disconnect turns the new one off', async () => {
		const { a, b, call } = await twoSignedIn();
		const works = async (key: string) =>
			(await call('GET', '/control/api/me', { 'x-control-key': key })).status;
		// From another site: refused, nothing changes.
		const forged = await a.browser.go('POST', '/account/new-control-key', {
			origin: 'https://evil.example'
		});
		expect(forged.status).toBe(403);
		expect(dockKeyIn(await a.browser.dashboard())).toBe(a.controlKey);

		expect((await a.browser.post('/account/new-control-key')).status).toBe(303);
		const fresh = dockKeyIn(await a.browser.dashboard())!;
		expect(fresh).not.toBe(a.controlKey);
		const old = await call('GET', '/control/api/me', { 'x-control-key': a.controlKey });
		expect([old.status, await codeOf(old)]).toEqual([401, 'control_key_replaced']);
		expect(await works(fresh)).toBe(200);
		// The overlay key and the other streamer's dock are untouched.
		expect(keyIn(await a.browser.dashboard())).toBe(a.overlayKey);
		expect((await call('POST', '/token', { 'x-overlay-key': a.overlayKey })).status).toBe(200);
		expect(await works(b.controlKey)).toBe(200);
		// The single mode's POST /control/new-key is not how hosted mode makes one.
		const single = await call('POST', '/control/new-key', { 'x-control-key': fresh });
		expect(single.status).toBe(404);
		expect(await works(fresh)).toBe(200);

		const session = await sessionHeaders(a);
		expect((await a.browser.post('/account/disconnect')).status).toBe(303);
		const off = await call('GET', '/control/api/me', { 'x-control-key': fresh });
		expect([off.status, await codeOf(off)]).toEqual([401, 'control_key_replaced']);
		expect((await call('GET', '/control/api/me', session)).status).toBe(401);
		expect(dockKeyIn(await a.browser.dashboard())).toBeUndefined();
		expect(await works(b.controlKey)).toBe(200);
	});

	it('two docks pressing Skip at once skip the playing tip once, never the next', async () => {
		proxy = await racingUpstream();
		const racing = proxy;
		const { sim, a, call } = await twoSignedIn((s) => racing.via(s.baseUrl));
		const playing = await tipFor(sim, a.tenant.id, 'first');
		const next = await tipFor(sim, a.tenant.id, 'second');
		// The TTS widget claims the first tip, as it does before reading it aloud.
		const claim = await call('POST', `/api/tts/${playing}/start`, {
			'x-overlay-key': a.overlayKey
		});
		expect(claim.status).toBe(200);
		expect((await ttsQueue(call, a.controlKey)).current_order_id).toBe(playing);

		// The OBS dock (control key) and the dashboard's controls (session) press at once.
		racing.arm();
		const session = await sessionHeaders(a);
		const presses = await Promise.all(
			[{ 'x-control-key': a.controlKey }, session].map(async (headers) => {
				const res = await call('POST', '/control/actions/tts-skip', headers, { order_id: playing });
				expect(res.status).toBe(200);
				return ((await res.json()) as { outcome: string }).outcome;
			})
		);
		expect(presses.sort()).toEqual(['already', 'done']);
		const skips = sim.control.log
			.requests({ method: 'POST', path: '/tts/skip' })
			.filter((r) => r.status === 200);
		expect(skips).toHaveLength(1);
		expect((await ttsQueue(call, a.controlKey)).items.map((t) => t.order_id)).toEqual([next]);
	});
});
