// Hosted mode on several instances sharing one PostgreSQL: migrations run by instances
// starting together, a sign-in crossing instances, a key replaced on one instance and refused
// promptly by another (its announcement), and a drain on close (the request in flight and its
// refresh finish first), in the process and as the server's answer to SIGTERM. The refreshes
// between instances have their own file (hosted-instances.refresh.test.ts).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import {
	dashboard,
	db,
	deployment,
	dueForRefresh,
	freshDatabase,
	gatedRefresh,
	hostedProcess,
	mint,
	missing,
	PUBLIC,
	refreshes,
	SECRET,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';

useDeployments();

/**
 * A key turned off is refused as replaced by an instance that served it from memory as soon as
 * the announcement reaches it (hosted/key-cache.ts): within REFUSED_WITHIN_MS.
 */
const REFUSED_WITHIN_MS = 2_000;
async function refusedSoon(call: () => Promise<Response>): Promise<void> {
	const end = Date.now() + REFUSED_WITHIN_MS;
	for (;;) {
		const res = await call();
		const code = res.status === 401 ? ((await res.json()) as { code: string }).code : null;
		if (res.status !== 401) await res.body?.cancel();
		if (code === 'overlay_key_replaced') return;
		expect(Date.now(), `still ${res.status} ${code ?? ''}`).toBeLessThan(end);
		await new Promise((r) => setTimeout(r, 20));
	}
}

describe.skipIf(missing)('several hosted instances on one PostgreSQL', { timeout: 150_000 }, () => {
	it('three instances starting at once apply each migration once and all serve', async () => {
		const { apps } = await deployment(3);
		const applied = await sql<{ name: string }>`select name from kysely_migration order by name`
			.execute(db!)
			.then((r) => r.rows.map((row) => row.name));
		expect(applied).toEqual([
			'001-streamers-keys-sessions',
			'002-access-refresh-at',
			'003-control-keys',
			'004-moderation',
			'005-settings',
			'006-upstream-calls',
			'007-chat',
			'008-chat-entries',
			'009-kept',
			'010-kept-settings',
			'011-kept-chat',
			'012-kept-moderation',
			'013-intake-leases',
			'014-activity',
			'015-webhook-endpoints'
		]);
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
		// Disconnect on one instance: revoked upstream once, the URL off on every instance (at once
		// where the database is asked, within moments where the key was served from memory).
		const off = await fetch(`${c.origin}/account/disconnect`, {
			method: 'POST',
			redirect: 'manual',
			headers: { origin: PUBLIC, cookie }
		});
		expect(off.status).toBe(303);
		expect(sim.control.log.oauthEntries('revoke')).toHaveLength(1);
		for (const on of apps) await refusedSoon(() => mint(on, key!));
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

	it('a key replaced on one instance is refused promptly by another that has just served it', async () => {
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
		])
			await refusedSoon(call);
		expect((await mint(b, fresh)).status).toBe(200);
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
		await freshDatabase();
		const { origin, child, exited, output } = await hostedProcess();
		try {
			const health = await fetch(`${origin}/healthz`);
			expect(await health.json()).toMatchObject({ ok: true, database: { reachable: true } });
		} finally {
			child.kill('SIGTERM');
		}
		expect((await exited).code).toBe(0);
		expect(output()).toContain('Stopping: finishing the requests in flight');
	});
});
