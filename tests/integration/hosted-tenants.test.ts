// Hosted mode with several streamers at once, on the hosted demo's
// simulator with three demo streamers: each signs in through the consent page naming them, each
// dashboard, overlay key, queue and realtime socket is theirs alone, a key never reaches another's
// queue, and one streamer disconnecting or being revoked at the upstream leaves the others playing.
// Nothing secret appears in any log line.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { DEMO_TENANTS } from '../../src/sim/index.ts';
import { Browser, keyIn, SECRET_KEY, startHosted } from '../fixtures/hosted.ts';
import { RealtimeClient, simsPerTest, until, type Sim } from '../fixtures/sim.ts';
import WebSocket from 'ws';

const start = simsPerTest();
let hosted: HostedApp | null = null;
const sockets: WebSocket[] = [];
afterEach(async () => {
	for (const ws of sockets.splice(0)) ws.terminate();
	await hosted?.close();
	hosted = null;
	vi.restoreAllMocks();
});

interface Signed {
	tenant: (typeof DEMO_TENANTS)[number];
	browser: Browser;
	key: string;
	dashboard: string;
}

/** Every line the process logs while the test runs (console and the raw streams). */
function captureLogs(): string[] {
	const lines: string[] = [];
	for (const m of ['log', 'info', 'warn', 'error', 'debug'] as const)
		vi.spyOn(console, m).mockImplementation((...args) => void lines.push(args.join(' ')));
	for (const stream of [process.stdout, process.stderr]) {
		const write = stream.write.bind(stream);
		vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: never[]) => {
			lines.push(String(chunk));
			return write(chunk as string, ...rest);
		}) as typeof stream.write);
	}
	return lines;
}

async function threeSignedIn() {
	const sim = await start({ tenants: DEMO_TENANTS });
	const h = await startHosted(sim);
	hosted = h;
	const signed: Signed[] = [];
	for (const tenant of DEMO_TENANTS) {
		const browser = new Browser(h.publicUrl);
		const back = await browser.signIn(sim, tenant.id);
		expect(back.headers.get('location')).toBe('/dashboard');
		const dashboard = await browser.dashboard();
		signed.push({ tenant, browser, key: keyIn(dashboard)!, dashboard });
	}
	const api = (key: string, method: string, path: string) =>
		fetch(h.publicUrl + path, { method, headers: { 'x-overlay-key': key } });
	return { sim, h, signed, api };
}

/** A realtime socket opened the way a widget opens it: /token with the overlay key, then auth. */
async function widgetSocket(
	api: (key: string, method: string, path: string) => Promise<Response>,
	key: string
): Promise<RealtimeClient> {
	const res = await api(key, 'POST', '/token');
	expect(res.status).toBe(200);
	const { token, ws_url } = (await res.json()) as { token: string; ws_url: string };
	const client = await RealtimeClient.open({ wsUrl: ws_url } as Sim);
	sockets.push(client.ws);
	client.send({ type: 'auth', data: { token } });
	expect((await client.next((m) => m.type === 'ready' || m.type === 'error')).type).toBe('ready');
	return client;
}

/** A tip for a demo streamer, ready to play (its audio rendered). */
async function tipFor(sim: Sim, tenantId: string, name: string): Promise<string> {
	const model = sim.control.tenant(tenantId);
	const tip = sim.control.createTip(
		{ name, amount: 5, message: `hello ${name}`, paid: true },
		tenantId
	);
	await until(() => model.tts.find(tip.order_id)?.tts_url != null);
	return tip.order_id;
}

/** Successful starts of a tip, and which account's credential made them. */
const starts = (sim: Sim, orderId: string) =>
	sim.control.log
		.requests({ method: 'POST', path: new RegExp(`^/tts/${orderId}/start$`) })
		.filter((r) => r.status === 200);
const finishes = (sim: Sim, orderId: string) =>
	sim.control.log
		.requests({ method: 'POST', path: new RegExp(`^/tts/${orderId}/finish$`) })
		.filter((r) => r.status === 200);

describe('hosted mode with three streamers signed in at once', { timeout: 150_000 }, () => {
	it('the consent page asks which demo streamer signs in; each gets only their own overlays, queue and events', async () => {
		const logs = captureLogs();
		const { sim, h, signed, api } = await threeSignedIn();

		// The consent page names every demo streamer.
		const probe = new Browser(h.publicUrl);
		const toConsent = await probe.post('/auth/start');
		const consent = await (await fetch(toConsent.headers.get('location')!)).text();
		expect(consent).toContain('Which demo streamer is signing in?');
		for (const t of DEMO_TENANTS) expect(consent).toContain(t.name);

		expect(new Set(signed.map((s) => s.key)).size).toBe(3);
		for (const me of signed) {
			const others = signed.filter((s) => s !== me);
			expect(me.dashboard).toContain(me.tenant.name);
			for (const id of me.tenant.overlayIds) expect(me.dashboard).toContain(`/overlay/${id}?`);
			for (const o of others) {
				expect(me.dashboard).not.toContain(o.tenant.name);
				expect(me.dashboard).not.toContain(o.key);
				for (const id of o.tenant.overlayIds) expect(me.dashboard).not.toContain(id);
			}
			const who = (await (await api(me.key, 'GET', '/api/me')).json()) as {
				tenant: { id: string };
			};
			expect(who.tenant.id).toBe(me.tenant.id);
			const listed = (await (await api(me.key, 'GET', '/api/overlays')).json()) as {
				overlays: { id: string }[];
			};
			expect(listed.overlays.map((o) => o.id).sort()).toEqual([...me.tenant.overlayIds].sort());
		}

		// Each widget's socket hears its own streamer's tips only.
		const clients = await Promise.all(signed.map((s) => widgetSocket(api, s.key)));
		const tips = await Promise.all(
			signed.map((s) => tipFor(sim, s.tenant.id, `fan_of_${s.tenant.id}`))
		);
		// A second tip each: a socket's events arrive in order, so once it has its own second tip,
		// any other streamer's first tip would already be there.
		const marks = await Promise.all(
			signed.map((s) => tipFor(sim, s.tenant.id, `mark_${s.tenant.id}`))
		);
		const created = (c: RealtimeClient) =>
			c.events('tip.created').map((e) => e.data.tip.order_id as string);
		for (const [i, c] of clients.entries()) {
			await until(() => created(c).includes(marks[i]));
			expect(created(c)).toEqual([tips[i], marks[i]]);
		}

		// Playing through the token endpoint: each key starts and finishes its own tip; another
		// streamer's tip is not in its queue (404), and stays unplayed.
		const [a, b] = signed;
		const crossed = await api(a.key, 'POST', `/api/tts/${tips[1]}/start`);
		expect(crossed.status).toBe(404);
		expect(starts(sim, tips[1])).toEqual([]);
		for (const [i, s] of signed.entries()) {
			expect((await api(s.key, 'POST', `/api/tts/${tips[i]}/start`)).status).toBe(200);
			expect((await api(s.key, 'POST', `/api/tts/${tips[i]}/finish`)).status).toBe(200);
			expect(starts(sim, tips[i]).map((r) => r.tenant)).toEqual([s.tenant.id]);
			expect(finishes(sim, tips[i]).map((r) => r.tenant)).toEqual([s.tenant.id]);
		}
		expect(sim.control.tenant(b.tenant.id).tts.find(tips[1])).toBeUndefined();

		// Nothing secret in any log line: keys, session cookies, tokens, the secret itself.
		const secrets = [SECRET_KEY, ...signed.flatMap((s) => [s.key, s.browser.cookie.split('=')[1]])];
		for (const s of signed) {
			const id = (await h.store.resolveOverlayKey(s.key)) as { streamerId: string };
			const grant = (await h.store.grant(id.streamerId))!;
			secrets.push(grant.refreshToken);
			if (grant.accessToken) secrets.push(grant.accessToken);
		}
		const logged = logs.join('\n');
		for (const secret of secrets) expect(secret.length > 20 && logged.includes(secret)).toBe(false);
	});

	it('Disconnect of one and revocation of another at the upstream leave the third playing', async () => {
		const { sim, signed, api } = await threeSignedIn();
		const [a, b, c] = signed;
		const [sa, sb, sc] = await Promise.all(signed.map((s) => widgetSocket(api, s.key)));
		const authorizationOf = (tenantId: string) =>
			[...sim.control.oauth.authorizations.values()].find(
				(x) => x.tenantId === tenantId && !x.revoked
			);
		const authB = authorizationOf(b.tenant.id)!.id;
		const authC = authorizationOf(c.tenant.id)!.id;

		// A disconnects: revoked at the upstream (A's authorization only), A's socket closed, A's URLs
		// refused here with no upstream call.
		expect((await a.browser.post('/account/disconnect')).status).toBe(303);
		expect(sim.control.oauth.authorizations.get(authB)?.revoked).toBeNull();
		expect(sim.control.oauth.authorizations.get(authC)?.revoked).toBeNull();
		expect(await sa.closed()).toBe(4401);
		const before = sim.control.log.requests().length;
		expect((await api(a.key, 'POST', '/token')).status).toBe(401);
		expect((await api(a.key, 'GET', '/api/tts/queue')).status).toBe(401);
		expect(sim.control.log.requests().length).toBe(before);
		expect(await a.browser.dashboard()).toContain('You disconnected this tip page');

		// B's authorization is revoked in the upstream's dashboard: B's socket closes, B's next call
		// is refused, and B's dashboard offers Reconnect.
		sim.control.oauth.revokeAuthorization(authB, 'revoked by the streamer in the dashboard');
		expect(await sb.closed()).toBe(4401);
		expect((await api(b.key, 'GET', '/api/me')).status).toBe(401);
		const reconnect = await b.browser.dashboard();
		expect(reconnect).toContain('Reconnect');
		expect(reconnect).not.toContain(b.key);

		// C plays on: the same socket hears C's next tip, which C starts and finishes once.
		expect(sc.closeCode).toBeNull();
		const tip = await tipFor(sim, c.tenant.id, 'still_here');
		await until(() => sc.events('tip.created').some((e) => e.data.tip.order_id === tip));
		expect((await api(c.key, 'POST', `/api/tts/${tip}/start`)).status).toBe(200);
		expect((await api(c.key, 'POST', `/api/tts/${tip}/finish`)).status).toBe(200);
		expect(starts(sim, tip)).toHaveLength(1);
		expect(finishes(sim, tip)).toHaveLength(1);

		// B reconnects: the same overlay URLs work again.
		await b.browser.signIn(sim, b.tenant.id);
		expect(keyIn(await b.browser.dashboard())).toBe(b.key);
		const me = (await (await api(b.key, 'GET', '/api/me')).json()) as { tenant: { id: string } };
		expect(me.tenant.id).toBe(b.tenant.id);
	});
});
