// Hosted mode: each streamer's upstream calls use their own OAuth authorization,
// journaled in the database: the rotated refresh token is stored (sealed) before it is used, and a
// refresh cut short by a crash is never replayed: the streamer is asked to reconnect instead.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
import { openDatabase, type Db } from '../../src/hosted/db.ts';
import { migrate } from '../../src/hosted/migrations.ts';
import { HostedConnections } from '../../src/hosted/connections.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import { connected, tokenFile } from '../fixtures/oauth-client.ts';
import { decide, REDIRECT } from '../fixtures/oauth.ts';
import { HostedSignIn } from '../../src/hosted/signin.ts';
import { send, simUpstream, tokenEndpoint } from '../fixtures/token-endpoint.ts';
import { simsPerTest, type Sim } from '../fixtures/sim.ts';

const start = simsPerTest();
let db: Db | null = null;
afterEach(async () => {
	await db?.destroy();
	db = null;
});

/** A streamer signed in to a hosted store with the simulator's tenant's authorization. */
async function signedIn(sim: Sim) {
	sims.push(sim);
	// The database first: its start takes seconds, long enough for the simulator to close the
	// idle keep-alive connection the sign-in below leaves (a reused dead socket: "fetch failed").
	db = await openDatabase({ dataDir: null });
	await migrate(db);
	const file = tokenFile();
	const { clientId } = await connected(sim, { file });
	const refreshToken = JSON.parse(readFileSync(file, 'utf8')).refresh_token as string;
	const store = new HostedStore(db, new SecretBox('hosted-connections-test-secret-0123456789'));
	const { streamer } = await store.signedIn(
		{ tenantId: sim.control.model.tenant.id, name: 'Sim streamer', currency: 'USD' },
		{ refreshToken, accessToken: 'unused', expiresAt: new Date(0), scopes: 'tts:read' }
	);
	const settings = {
		issuer: sim.oauthUrl,
		clientId,
		baseUrl: sim.baseUrl,
		wsUrl: sim.wsUrl,
		redirectUri: REDIRECT
	};
	return { store, streamer, settings, refreshToken };
}

const refreshes = (sim: Sim) => sim.control.log.oauthEntries('refresh_token').length;

afterEach(() => {
	// Whatever happened, no rotated-out refresh token was ever presented.
	for (const sim of sims) expect(sim.control.log.oauthEntries('reuse_detected')).toEqual([]);
	sims.length = 0;
});
const sims: Sim[] = [];

describe('a hosted streamer’s upstream client', { timeout: 150_000 }, () => {
	it('calls with the streamer’s own authorization and stores the rotated token before using it', async () => {
		const sim = await start();
		const { store, streamer, settings, refreshToken } = await signedIn(sim);
		const connections = new HostedConnections(store, settings);
		const me = await connections.upstream(streamer.id).call('GET', '/me');
		expect(refreshes(sim)).toBe(1);
		expect(me.status).toBe(200);
		expect((await me.json()).credential).toBe('oauth');
		const grant = (await store.grant(streamer.id))!;
		expect(grant.refreshToken).not.toBe(refreshToken);
		expect(grant.refreshToken).toMatch(/^tprt_/);
		expect(grant.refreshingSince).toBeNull();
		expect(grant.accessToken).toMatch(/^tpat_/);
		// Another client of the streamer (another instance) uses the stored access token: calls in
		// parallel need no refresh at all.
		const before = refreshes(sim);
		const other = new HostedConnections(store, settings).upstream(streamer.id);
		const all = await Promise.all([1, 2, 3, 4].map(() => other.call('GET', '/me')));
		expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200]);
		expect(refreshes(sim) - before).toBe(0);
	});

	it('a refresh cut short by a crash is not replayed: the streamer is asked to reconnect', async () => {
		const sim = await start();
		const { store, streamer, settings } = await signedIn(sim);
		const grant = (await store.grant(streamer.id))!;
		// The process died after marking the refresh and before storing its answer.
		expect(await store.markRefreshing(streamer.id, grant.generation)).toBe(true);
		const before = refreshes(sim);
		const res = await new HostedConnections(store, settings)
			.upstream(streamer.id)
			.call('GET', '/me');
		expect(res.status).toBe(401);
		expect((await res.json()).code).toBe('oauth_revoked');
		expect(refreshes(sim)).toBe(before);
		expect(await store.grant(streamer.id)).toBeNull();
		expect((await store.streamer(streamer.id))?.status).toBe('reconnect');
	});

	it('an authorization revoked at the upstream ends in Reconnect, and no API key is ever used', async () => {
		const sim = await start();
		const { store, streamer, settings } = await signedIn(sim);
		for (const id of sim.control.oauth.authorizations.keys())
			sim.control.oauth.revokeAuthorization(id, 'revoked in the dashboard');
		const res = await new HostedConnections(store, settings)
			.upstream(streamer.id)
			.call('GET', '/me');
		expect(res.status).toBe(401);
		expect((await store.streamer(streamer.id))?.status).toBe('reconnect');
		// Every call that reached the upstream carried an OAuth token (oa_...), never an API key.
		const keys = sim.control.log.requests({ path: '/me' }).map((r) => r.key);
		expect(keys.length).toBeGreaterThan(0);
		for (const key of keys) expect(key).toMatch(/^oa_/);
	});
});

describe('hosted sign-in', { timeout: 150_000 }, () => {
	async function setup(sim: Sim) {
		sims.push(sim);
		const { app } = sim.control.oauth.registerApp({ secret: null, redirectUris: [REDIRECT] });
		db = await openDatabase({ dataDir: null });
		await migrate(db);
		const store = new HostedStore(db, new SecretBox('hosted-signin-test-secret-0123456789abc'));
		const settings = {
			issuer: sim.oauthUrl,
			clientId: app.id,
			baseUrl: sim.baseUrl,
			wsUrl: sim.wsUrl,
			redirectUri: REDIRECT
		};
		return { store, settings, signIn: new HostedSignIn(store, settings) };
	}
	/** The browser's part: the consent page, Approve or Deny, back to the callback's URL. */
	const consent = async (sim: Sim, url: string, approve = true) =>
		(await decide(sim, await fetch(url, { redirect: 'manual' }), approve)).searchParams;

	it('creates the streamer from GET /me, once per tenant, and each attempt is used once', async () => {
		const sim = await start();
		const { store, settings, signIn } = await setup(sim);
		const back = await consent(sim, await signIn.start());
		const streamer = await signIn.finish(back);
		expect(streamer).toMatchObject({
			tenantId: sim.control.model.tenant.id,
			name: sim.control.model.tenant.name,
			status: 'connected'
		});
		expect(await store.overlayKey(streamer.id)).toMatch(/^[A-Za-z0-9_-]{43}$/);
		// The same answer again (a replayed callback) is refused.
		await expect(signIn.finish(back)).rejects.toMatchObject({ code: 'bad_state' });
		// Signing in again is the same streamer, with a new authorization.
		const again = await signIn.finish(await consent(sim, await signIn.start()));
		expect(again.id).toBe(streamer.id);
		const me = await new HostedConnections(store, settings)
			.upstream(streamer.id)
			.call('GET', '/me');
		expect(me.status).toBe(200);
	});

	it('a denied consent creates nothing', async () => {
		const sim = await start();
		const { store, signIn } = await setup(sim);
		await expect(
			signIn.finish(await consent(sim, await signIn.start(), false))
		).rejects.toMatchObject({
			code: 'access_denied'
		});
		expect(await db!.selectFrom('streamers').selectAll().execute()).toEqual([]);
		// The attempt is used up: its answer cannot be replayed.
		expect(await db!.selectFrom('sign_in_attempts').selectAll().execute()).toEqual([]);
		expect(await store.session('x'.repeat(43))).toBeNull();
	});
});

describe('the token endpoint in hosted mode', { timeout: 150_000 }, () => {
	it('serves each key with its own streamer’s authorization; other keys reach no upstream', async () => {
		const sim = await start();
		const { store, streamer, settings } = await signedIn(sim);
		// A second streamer (another tenant) whose authorization the simulator never issued.
		const other = (
			await store.signedIn(
				{ tenantId: 't_other', name: 'Other', currency: 'EUR' },
				{ refreshToken: 'tprt_not_real', accessToken: 'x', expiresAt: new Date(0), scopes: '' }
			)
		).streamer;
		const connections = new HostedConnections(store, settings);
		const { app } = tokenEndpoint(simUpstream(sim, ''), {
			resolveKey: async (key) => {
				const found = await store.resolveOverlayKey(key);
				return found && 'streamerId' in found
					? { upstream: connections.upstream(found.streamerId), streamer: found.streamerId }
					: found;
			}
		});
		const keyA = (await store.overlayKey(streamer.id))!;
		const keyB = (await store.overlayKey(other.id))!;
		const requestsBefore = () => sim.control.log.requests().length;

		const token = await send(app, 'POST', '/token', { key: keyA });
		expect(token.status).toBe(200);
		expect(await token.text()).not.toContain(keyA);
		const me = await send(app, 'GET', '/api/me', { key: keyA });
		expect(((await me.json()) as { tenant: { id: string } }).tenant.id).toBe(
			sim.control.model.tenant.id
		);

		// B's key gets B's authorization only: refused by the upstream's OAuth server, never A's.
		let n = requestsBefore();
		const b = await send(app, 'GET', '/api/me', { key: keyB });
		expect(b.status).toBe(401);
		expect(sim.control.log.requests().length).toBe(n);
		expect((await store.streamer(other.id))?.status).toBe('reconnect');

		// A wrong key or a replaced one: refused here, with no upstream call.
		n = requestsBefore();
		expect((await send(app, 'GET', '/api/me', { key: 'w'.repeat(43) })).status).toBe(401);
		await store.newOverlayKey(streamer.id);
		const replaced = await send(app, 'POST', '/token', { key: keyA });
		expect(replaced.status).toBe(401);
		expect(((await replaced.json()) as { code: string }).code).toBe('overlay_key_replaced');
		expect(sim.control.log.requests().length).toBe(n);
	});
});
