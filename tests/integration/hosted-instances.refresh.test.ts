// Refreshes on several hosted instances sharing one PostgreSQL: a refresh race between
// instances (one upstream refresh, the others wait for it and use its result), refreshes waiting
// for locks another instance holds while the instance serves everyone else (they hold no pooled
// connection), and an instance killed inside a refresh (its mark makes the next holder end the
// connection instead of presenting a maybe rotated-out token).
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
import { LOCK_CLASS } from '../../src/hosted/locks.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import {
	dashboard,
	db,
	deployment,
	dueForRefresh,
	gatedRefresh,
	mint,
	missing,
	pause,
	pg,
	PUBLIC,
	refreshes,
	SECRET,
	settledFlag,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { runChild } from '../fixtures/child.ts';
import type { Sim } from '../fixtures/sim.ts';

useDeployments();

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

describe.skipIf(missing)('several hosted instances on one PostgreSQL', { timeout: 150_000 }, () => {
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
			// No intake on the instance that lives: its own calls would refresh the token first.
			const { sim, apps, clientId } = await deployment(1, undefined, {}, undefined, {
				intakes: false
			});
			const [b] = apps;
			const cookie = await signIn(sim, b, b);
			const { id, key } = await dueForRefresh();
			const before = refreshes(sim);
			const child = runChild('tests/fixtures/hosted-refresh-child.ts', {
				DATABASE_URL: pg!.url,
				SECRET_KEY: SECRET,
				STREAMER_ID: id,
				OAUTH_URL: sim.oauthUrl,
				BASE_URL: sim.baseUrl,
				WS_URL: sim.wsUrl,
				CLIENT_ID: clientId,
				STOP_AT: stopAt
			});
			await child.heard((line) => line === stopAt);
			// The other instance's source waits for the lock the stopped instance holds.
			const res = mint(b, key);
			const waiting = settledFlag(res);
			await pause(300);
			expect(waiting.settled).toBe(false);
			expect(await child.killed()).toBe('SIGKILL');
			const answer = await res;
			expect(answer.status).toBe(401);
			// The first of the instance's calls with the token to reach the dead holder's mark ends
			// the connection; any other finds it ended.
			expect(['oauth_revoked', 'not_connected']).toContain(
				((await answer.json()) as { code: string }).code
			);
			expect(refreshes(sim) - before).toBe(stopAt === 'answered' ? 1 : 0);
			expect(sim.control.log.oauthEntries('refresh_rejected')).toEqual([]);
			expect(await dashboard(b, cookie)).toContain('Reconnect');
			// Reconnecting brings the same overlay URL back.
			await signIn(sim, b, b);
			expect((await mint(b, key)).status).toBe(200);
		});
});
