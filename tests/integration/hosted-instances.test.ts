// Hosted mode on several instances sharing one PostgreSQL (issue 20): migrations run by instances
// starting together, a sign-in crossing instances, a refresh race between instances (one upstream
// refresh, the others wait for it and use its result), an instance killed inside a refresh (its
// mark makes the next holder end the connection instead of presenting a maybe rotated-out token),
// refreshes waiting for locks another instance holds while the instance serves everyone else (they
// hold no pooled connection), and a drain on close (the request in flight and its refresh finish
// first).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
import { openDatabase, type Db } from '../../src/hosted/db.ts';
import { LOCK_CLASS } from '../../src/hosted/locks.ts';
import { serveHosted, type HostedApp } from '../../src/hosted/serve.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import type { Fetch } from '../../src/server/upstream.ts';
import { decide } from '../fixtures/oauth.ts';
import { simsPerTest, type Sim } from '../fixtures/sim.ts';
import { postgresMissing, startPostgres, type PostgresServer } from './postgres-server.ts';

const missing = postgresMissing();
if (missing && process.env.CI) throw new Error(`CI needs PostgreSQL: ${missing}`);

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'hosted-instances-test-secret-0123456789ab';
/** The load balancer's address: what streamers use; the tests pick the instance themselves. */
const PUBLIC = 'http://127.0.0.1:1';

let pg: PostgresServer | null = null;
let db: Db | null = null;
beforeAll(async () => {
	if (!missing) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
	await pg?.stop();
});

const start = simsPerTest();
const sims: Sim[] = [];
const running: HostedApp[] = [];
afterEach(async () => {
	await Promise.all(running.splice(0).map((a) => a.close()));
	await db?.destroy();
	db = null;
	// Whatever happened, no rotated-out refresh token was ever presented.
	for (const sim of sims.splice(0))
		expect(sim.control.log.oauthEntries('reuse_detected')).toEqual([]);
});

/** `n` instances on one fresh database, started together; `fetchOf(i)`: instance i's OAuth fetch. */
async function deployment(
	n: number,
	fetchOf: (i: number) => Fetch | undefined = () => undefined,
	simOptions: Parameters<typeof start>[0] = {}
) {
	const sim = await start(simOptions);
	sims.push(sim);
	db = await openDatabase({ databaseUrl: pg!.url });
	await sql`drop schema public cascade; create schema public`.execute(db);
	const { app } = sim.control.oauth.registerApp({
		secret: null,
		redirectUris: [`${PUBLIC}/auth/callback`]
	});
	const apps = await Promise.all(
		Array.from({ length: n }, (_, i) =>
			serveHosted({
				config: {
					mode: 'live',
					host: '127.0.0.1',
					port: 0,
					databaseUrl: pg!.url,
					dataDir: '',
					publicUrl: PUBLIC,
					secretKey: SECRET,
					oauth: null
				},
				upstream: {
					issuer: sim.oauthUrl,
					clientId: app.id,
					baseUrl: sim.baseUrl,
					wsUrl: sim.wsUrl,
					fetch: fetchOf(i)
				},
				dist: '/nonexistent'
			})
		)
	);
	running.push(...apps);
	return { sim, apps, clientId: app.id };
}

/** The browser: Connect on `from`, the consent page, the callback on `to`; the session cookie. */
async function signIn(sim: Sim, from: HostedApp, to: HostedApp): Promise<string> {
	const toConsent = await fetch(`${from.origin}/auth/start`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: PUBLIC }
	});
	expect(toConsent.status).toBe(303);
	const consent = await fetch(toConsent.headers.get('location')!, { redirect: 'manual' });
	const back = await decide(sim, consent, true);
	const done = await fetch(to.origin + back.pathname + back.search, { redirect: 'manual' });
	expect(done.status).toBe(303);
	expect(done.headers.get('location')).toBe('/dashboard');
	return (done.headers.get('set-cookie') ?? '').split(';')[0];
}

const dashboard = async (on: HostedApp, cookie: string) =>
	(await fetch(`${on.origin}/dashboard`, { headers: { cookie }, redirect: 'manual' })).text();

const mint = (on: HostedApp, key: string) =>
	fetch(`${on.origin}/token`, { method: 'POST', headers: { 'x-overlay-key': key } });

/** The one streamer's id and overlay key, and their access token made due for a refresh. */
async function dueForRefresh(): Promise<{ id: string; key: string }> {
	const { id } = await db!.selectFrom('streamers').select('id').executeTakeFirstOrThrow();
	await db!
		.updateTable('grants')
		.set({ access_expires_at: new Date(), access_refresh_at: new Date() })
		.execute();
	const key = (await new HostedStore(db!, new SecretBox(SECRET)).overlayKey(id))!;
	return { id, key };
}

/** A streamer's consent given at the simulator directly (PKCE): their tokens. */
function authorizeDirectly(sim: Sim, clientId: string, tenantId: string) {
	const verifier = randomBytes(32).toString('base64url');
	const redirectUri = `${PUBLIC}/auth/callback`;
	const asked = sim.control.oauth.authorize({
		response_type: 'code',
		client_id: clientId,
		redirect_uri: redirectUri,
		code_challenge: createHash('sha256').update(verifier).digest('base64url'),
		code_challenge_method: 'S256'
	});
	if (asked.kind !== 'consent') throw new Error(`no consent: ${JSON.stringify(asked)}`);
	const back = sim.control.oauth.decide(asked.request.id, true, tenantId);
	if (back.kind !== 'redirect') throw new Error(`not approved: ${JSON.stringify(back)}`);
	const code = new URL(back.location).searchParams.get('code')!;
	return sim.control.oauth.token(
		{
			grant_type: 'authorization_code',
			code,
			redirect_uri: redirectUri,
			code_verifier: verifier,
			client_id: clientId
		},
		null
	);
}

const refreshes = (sim: Sim) => sim.control.log.oauthEntries('refresh_token').length;
const settledFlag = <T>(p: Promise<T>) => {
	const flag = { settled: false };
	void p.finally(() => (flag.settled = true)).catch(() => {});
	return flag;
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** An OAuth fetch that holds the answer to a refresh until `open()`, saying when it has it. */
function gatedRefresh() {
	let open!: () => void;
	let answered!: () => void;
	const gate = new Promise<void>((r) => (open = r));
	const received = new Promise<void>((r) => (answered = r));
	const fetchImpl: Fetch = async (url, init) => {
		const res = await fetch(url, init);
		if (url.endsWith('/oauth/token') && String(init?.body).includes('refresh_token')) {
			await res.clone().text();
			answered();
			await gate;
		}
		return res;
	};
	return { fetch: fetchImpl, open, received };
}

describe.skipIf(missing)('several hosted instances on one PostgreSQL', { timeout: 150_000 }, () => {
	it('three instances starting at once apply each migration once and all serve', async () => {
		const { apps } = await deployment(3);
		const applied = await sql<{ name: string }>`select name from kysely_migration order by name`
			.execute(db!)
			.then((r) => r.rows.map((row) => row.name));
		expect(applied).toEqual(['001-streamers-keys-sessions', '002-access-refresh-at']);
		for (const a of apps) {
			const health = await fetch(`${a.origin}/healthz`);
			expect(health.status).toBe(200);
			expect(await health.json()).toMatchObject({ ok: true, database: { reachable: true } });
		}
	});

	it('a sign-in started on one instance finishes on another; the session works on a third', async () => {
		const { sim, apps } = await deployment(3);
		const [a, b, c] = apps;
		const cookie = await signIn(sim, a, b);
		const html = await dashboard(c, cookie);
		expect(html).toContain(sim.control.model.tenant.name);
		const key = /\/widget\/tts\?key=([A-Za-z0-9_-]{43})/.exec(html)?.[1];
		expect(key).toBeDefined();
		for (const on of apps) expect((await mint(on, key!)).status).toBe(200);
		// Disconnect on one instance: revoked upstream once, the URL off on every instance.
		const off = await fetch(`${c.origin}/account/disconnect`, {
			method: 'POST',
			redirect: 'manual',
			headers: { origin: PUBLIC, cookie }
		});
		expect(off.status).toBe(303);
		expect(sim.control.log.oauthEntries('revoke')).toHaveLength(1);
		for (const on of apps) {
			const refused = await mint(on, key!);
			expect(refused.status).toBe(401);
			expect(((await refused.json()) as { code: string }).code).toBe('overlay_key_replaced');
		}
		expect(await dashboard(a, cookie)).toContain('You disconnected this tip page');
		// Signing out on one instance ends the session on all.
		await fetch(`${a.origin}/auth/signout`, {
			method: 'POST',
			redirect: 'manual',
			headers: { origin: PUBLIC, cookie }
		});
		const after = await fetch(`${c.origin}/dashboard`, { headers: { cookie }, redirect: 'manual' });
		expect(after.headers.get('location')).toBe('/');
	});

	it('a key replaced on one instance is refused at once by another that has just served it', async () => {
		const { sim, apps } = await deployment(2);
		const [a, b] = apps;
		const cookie = await signIn(sim, a, a);
		const keyOf = async () =>
			/\/widget\/tts\?key=([A-Za-z0-9_-]{43})/.exec(await dashboard(a, cookie))![1];
		const old = await keyOf();
		// B has served the key (and its streamer) a few times: whatever it keeps in memory is warm.
		for (let i = 0; i < 3; i++) expect((await mint(b, old)).status).toBe(200);
		const replaced = await fetch(`${a.origin}/account/new-key`, {
			method: 'POST',
			redirect: 'manual',
			headers: { origin: PUBLIC, cookie }
		});
		expect(replaced.status).toBe(303);
		const fresh = await keyOf();
		expect(fresh).not.toBe(old);
		for (const call of [
			() => mint(b, old),
			() => fetch(`${b.origin}/api/me`, { headers: { 'x-overlay-key': old } })
		]) {
			const refused = await call();
			expect(refused.status).toBe(401);
			expect(((await refused.json()) as { code: string }).code).toBe('overlay_key_replaced');
		}
		expect((await mint(b, fresh)).status).toBe(200);
	});

	it('a refresh race between three instances: one upstream refresh, everyone uses its result', async () => {
		const gated = gatedRefresh();
		const { sim, apps } = await deployment(3, (i) => (i === 0 ? gated.fetch : undefined));
		await signIn(sim, apps[1], apps[1]);
		const { id, key } = await dueForRefresh();
		const before = refreshes(sim);
		// Five sources per instance ask for a token at once; instance 0 gets the lock first and is
		// held with the rotated token received but not stored yet.
		const first = Promise.all([1, 2, 3, 4, 5].map(() => mint(apps[0], key)));
		await gated.received;
		const others = Promise.all(
			[apps[1], apps[2]].flatMap((on) => [1, 2, 3, 4, 5].map(() => mint(on, key)))
		);
		const waiting = settledFlag(others);
		await pause(300);
		// The others wait for the lock (without it they would see the mark and end the connection).
		expect(waiting.settled).toBe(false);
		gated.open();
		const statuses = [...(await first), ...(await others)].map((r) => r.status);
		expect(statuses).toEqual(Array(15).fill(200));
		expect(refreshes(sim) - before).toBe(1);
		const grant = (await new HostedStore(db!, new SecretBox(SECRET)).grant(id))!;
		expect(grant.refreshingSince).toBeNull();
		expect(
			(await db!.selectFrom('streamers').select('status').executeTakeFirstOrThrow()).status
		).toBe('connected');
		// Each instance's /metrics: one rotation in the deployment, two results used as they were.
		const counted = await Promise.all(
			apps.map(async (on) => (await fetch(`${on.origin}/metrics`)).text())
		);
		const total = (outcome: string) =>
			counted
				.map((t) =>
					Number(
						new RegExp(`tip_oauth_refreshes_total\\{outcome="${outcome}"\\} (\\d+)`).exec(t)![1]
					)
				)
				.reduce((x, y) => x + y);
		expect(total('rotated')).toBe(1);
		expect(total('adopted')).toBe(2);
		expect(counted[0]).toMatch(/tip_token_mint_seconds_count 5\n/);
		expect(counted[0]).toMatch(/tip_streamers\{status="connected"\} 1\n/);
	});

	it('refreshes waiting for locks another instance holds take no pooled connection: everyone else is served meanwhile', async () => {
		// More streamers waiting for a lock than both of the instance's pools have connections.
		const waiting = 25;
		const tenants = Array.from({ length: waiting + 1 }, (_, i) => ({
			id: `tn_locked_${i}`,
			name: `Streamer ${i}`,
			currency: 'USD',
			currency_symbol: '$',
			overlayIds: [0, 1, 2].map((k) => `o_${(i * 3 + k).toString(16).padStart(8, '0')}`) as [
				string,
				string,
				string
			]
		}));
		const { sim, apps, clientId } = await deployment(1, undefined, { tenants });
		const [a] = apps;
		const store = new HostedStore(db!, new SecretBox(SECRET));
		const streamers: { id: string; key: string }[] = [];
		for (const [i, tenant] of tenants.entries()) {
			const tokens = authorizeDirectly(sim, clientId, tenant.id);
			const { streamer } = await store.signedIn(
				{ tenantId: tenant.id, name: tenant.name, currency: 'USD' },
				{
					refreshToken: tokens.refresh_token,
					accessToken: tokens.access_token,
					// The first `waiting` are due for a refresh; the last one's token is fresh.
					expiresAt: new Date(i < waiting ? 0 : Date.now() + 3600_000),
					scopes: tokens.scope
				}
			);
			streamers.push({ id: streamer.id, key: (await store.overlayKey(streamer.id))! });
		}
		const before = refreshes(sim);
		// "Another instance" holds the due streamers' refresh locks, on one connection of its own.
		let release!: () => void;
		const released = new Promise<void>((r) => (release = r));
		let locked!: () => void;
		const allLocked = new Promise<void>((r) => (locked = r));
		const holder = db!.connection().execute(async (conn) => {
			for (const s of streamers.slice(0, waiting))
				await sql`select pg_advisory_lock(${LOCK_CLASS}, hashtext(${`refresh:${s.id}`}))`.execute(
					conn
				);
			locked();
			await released;
			await sql`select pg_advisory_unlock_all()`.execute(conn);
		});
		await allLocked;
		const due = streamers.slice(0, waiting).map((s) => mint(a, s.key));
		const dueFlag = settledFlag(Promise.all(due));
		// Every one of them has found its lock taken.
		const contended = async () =>
			Number(
				/^tip_refresh_lock_contended_total (\d+)$/m.exec(
					await (await fetch(`${a.origin}/metrics`)).text()
				)?.[1]
			);
		while ((await contended()) < waiting) await pause(50);
		// Meanwhile the instance serves everything else: another streamer's token, its health.
		const other = await mint(a, streamers[waiting].key);
		expect(other.status).toBe(200);
		expect((await fetch(`${a.origin}/healthz`)).status).toBe(200);
		expect(dueFlag.settled).toBe(false);
		expect(refreshes(sim)).toBe(before);
		// The holder finishes without a result: each waiter takes the lock and refreshes once.
		release();
		await holder;
		expect((await Promise.all(due)).map((r) => r.status)).toEqual(Array(waiting).fill(200));
		expect(refreshes(sim) - before).toBe(waiting);
	});

	for (const stopAt of ['sent', 'answered'] as const)
		it(`an instance killed inside a refresh (${stopAt}): no token presented again, the streamer reconnects`, async () => {
			const { sim, apps, clientId } = await deployment(1);
			const [b] = apps;
			const cookie = await signIn(sim, b, b);
			const { id, key } = await dueForRefresh();
			const before = refreshes(sim);
			const child = spawn(
				process.execPath,
				['--import', 'tsx', 'tests/fixtures/hosted-refresh-child.ts'],
				{
					cwd: root,
					env: {
						...process.env,
						DATABASE_URL: pg!.url,
						SECRET_KEY: SECRET,
						STREAMER_ID: id,
						OAUTH_URL: sim.oauthUrl,
						BASE_URL: sim.baseUrl,
						WS_URL: sim.wsUrl,
						CLIENT_ID: clientId,
						STOP_AT: stopAt
					},
					stdio: ['ignore', 'pipe', 'inherit']
				}
			);
			const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_c, s) => r(s)));
			let out = '';
			await new Promise<void>((resolve) =>
				child.stdout.on('data', (d) => {
					out += d;
					if (out.includes(`${stopAt}\n`)) resolve();
				})
			);
			// The other instance's source waits for the lock the stopped instance holds.
			const res = mint(b, key);
			const waiting = settledFlag(res);
			await pause(300);
			expect(waiting.settled).toBe(false);
			child.kill('SIGKILL');
			expect(await exited).toBe('SIGKILL');
			const answer = await res;
			expect(answer.status).toBe(401);
			expect(((await answer.json()) as { code: string }).code).toBe('oauth_revoked');
			expect(refreshes(sim) - before).toBe(stopAt === 'answered' ? 1 : 0);
			expect(sim.control.log.oauthEntries('refresh_rejected')).toEqual([]);
			expect(await dashboard(b, cookie)).toContain('Reconnect');
			// Reconnecting brings the same overlay URL back.
			await signIn(sim, b, b);
			expect((await mint(b, key)).status).toBe(200);
		});

	it('close() drains: a token mint waiting on a refresh finishes, then the instance stops', async () => {
		const gated = gatedRefresh();
		const { sim, apps } = await deployment(1, () => gated.fetch);
		const [a] = apps;
		await signIn(sim, a, a);
		const { id, key } = await dueForRefresh();
		const inFlight = mint(a, key);
		await gated.received;
		const closed = a.close();
		// No new connection is accepted while draining.
		await expect(fetch(`${a.origin}/healthz`)).rejects.toThrow();
		gated.open();
		expect((await inFlight).status).toBe(200);
		await closed;
		const grant = (await new HostedStore(db!, new SecretBox(SECRET)).grant(id))!;
		expect(grant.refreshingSince).toBeNull();
		expect(refreshes(sim)).toBe(1);
	});

	it('the hosted server (HOSTED=1) drains and exits 0 on SIGTERM', async () => {
		db = await openDatabase({ databaseUrl: pg!.url });
		await sql`drop schema public cascade; create schema public`.execute(db);
		const port = await new Promise<number>((resolve) => {
			const s = createServer().listen(0, '127.0.0.1', () => {
				const { port } = s.address() as { port: number };
				s.close(() => resolve(port));
			});
		});
		const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
			cwd: root,
			env: {
				...process.env,
				HOSTED: '1',
				DATABASE_URL: pg!.url,
				DATA_DIR: mkdtempSync(join(tmpdir(), 'hosted-sigterm-')),
				HOST: '127.0.0.1',
				PORT: String(port),
				SKIP_BUILD: '1'
			},
			stdio: ['ignore', 'pipe', 'pipe']
		});
		const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
		let out = '';
		await new Promise<void>((resolve) =>
			child.stdout.on('data', (d) => {
				out += d;
				if (out.includes('Listening on')) resolve();
			})
		);
		try {
			const health = await fetch(`http://127.0.0.1:${port}/healthz`);
			expect(await health.json()).toMatchObject({ ok: true, database: { reachable: true } });
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
		expect(out).toContain('Stopping: finishing the requests in flight');
	});
});
