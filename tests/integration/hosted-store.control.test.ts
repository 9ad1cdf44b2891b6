// The hosted store's part of the streamer's dock on both databases hosted mode
// supports: each streamer's control key (apart from the overlay key: neither resolves as the
// other), New control key and Disconnect, the dashboard session's CSRF token, and the control lock
// (one dock action of a streamer at a time; on PostgreSQL across database handles, as across
// instances). The HTTP side is in hosted-control.test.ts.
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CONTROL_LOCK_CLASS } from '../../src/hosted/control-lock.ts';
import { SecretBox } from '../../src/hosted/crypto.ts';
import { openDatabase, type Db } from '../../src/hosted/db.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import {
	grant,
	me,
	openForSuite,
	serverUrl,
	SECRET,
	storeEngines
} from '../fixtures/hosted-store.ts';

/** An action that records when it starts and ends, and ends when `gate` resolves. */
function recorder() {
	const order: string[] = [];
	const act = (name: string, gate?: Promise<void>) => async () => {
		order.push(`${name} in`);
		await gate;
		await Promise.resolve();
		order.push(`${name} out`);
		return name;
	};
	return { order, act };
}

/** Resolves once `check` holds (the state of a lock on the server, polled). */
async function until(check: () => Promise<boolean>): Promise<void> {
	for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
	expect(await check()).toBe(true);
}

describe.each(storeEngines())('hosted store on %s', (name, open) => {
	let db: Db;
	let store: HostedStore;
	const onServer = name === 'PostgreSQL server';
	openForSuite(open, (opened) => ({ db, store } = opened));

	it('a sign-in gives a control key apart from the overlay key; neither resolves as the other', async () => {
		const { streamer } = await store.signedIn(me(101), grant(101));
		const overlay = (await store.overlayKey(streamer.id))!;
		const control = (await store.controlKey(streamer.id))!;
		expect(control).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(control).not.toBe(overlay);
		expect(await store.resolveControlKey(control)).toEqual({ streamerId: streamer.id });
		expect(await store.resolveControlKey(overlay)).toBeNull();
		expect(await store.resolveOverlayKey(control)).toBeNull();
		expect(await store.resolveControlKey('x'.repeat(43))).toBeNull();
		expect(await store.resolveControlKey('')).toBeNull();
		// Signing in again keeps it; it is sealed at rest.
		await store.signedIn(me(101), grant(102));
		expect(await store.controlKey(streamer.id)).toBe(control);
		const rows = await db.selectFrom('control_keys').selectAll().execute();
		expect(JSON.stringify(rows)).not.toContain(control);
		const other = new HostedStore(db, new SecretBox('another-secret-of-at-least-32-characters'));
		expect(await other.resolveControlKey(control)).toBeNull();
	});

	it('New control key stops the old one at once and leaves the overlay key alone', async () => {
		const { streamer } = await store.signedIn(me(102), grant(103));
		const overlay = (await store.overlayKey(streamer.id))!;
		const old = (await store.controlKey(streamer.id))!;
		const [fresh, again] = await Promise.all([
			store.newControlKey(streamer.id),
			store.newControlKey(streamer.id)
		]);
		expect(await store.resolveControlKey(old)).toEqual({ replaced: true });
		// Two at once: the later one wins, and only one key is live.
		const live = await store.controlKey(streamer.id);
		expect([fresh, again]).toContain(live);
		for (const key of [fresh, again])
			expect(await store.resolveControlKey(key)).toEqual(
				key === live ? { streamerId: streamer.id } : { replaced: true }
			);
		expect(await store.resolveOverlayKey(overlay)).toEqual({ streamerId: streamer.id });
	});

	it('Disconnect turns the control key off; a streamer without one gets one while connected only', async () => {
		const a = (await store.signedIn(me(103), grant(104))).streamer;
		const b = (await store.signedIn(me(104), grant(105))).streamer;
		const keyA = (await store.controlKey(a.id))!;
		const keyB = (await store.controlKey(b.id))!;
		await store.disconnect(a.id);
		expect(await store.resolveControlKey(keyA)).toEqual({ replaced: true });
		expect(await store.controlKey(a.id)).toBeNull();
		expect(await store.resolveControlKey(keyB)).toEqual({ streamerId: b.id });
		// B signed in before control keys existed (no row): their dashboard makes one, once.
		await db.deleteFrom('control_keys').where('streamer_id', '=', b.id).execute();
		const [made, same] = await Promise.all([store.controlKey(b.id), store.controlKey(b.id)]);
		expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(same).toBe(made);
		expect(await store.resolveControlKey(made!)).toEqual({ streamerId: b.id });
		// Signing in again after Disconnect brings a new one.
		await store.signedIn(me(103), grant(106));
		const back = (await store.controlKey(a.id))!;
		expect(back).not.toBe(keyA);
		expect(await store.resolveControlKey(back)).toEqual({ streamerId: a.id });
	});

	it('a session’s CSRF token is its own, matches only with it, and ends with it', async () => {
		const a = (await store.signedIn(me(105), grant(107))).streamer;
		const b = (await store.signedIn(me(106), grant(108))).streamer;
		const sa = await store.createSession(a.id, 60_000);
		const sb = await store.createSession(b.id, 60_000);
		const csrfA = (await store.sessionCsrf(sa))!;
		const csrfB = (await store.sessionCsrf(sb))!;
		expect(csrfA).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(csrfA).not.toBe(csrfB);
		expect(await store.sessionCsrf(sa)).toBe(csrfA);
		expect(await store.sessionWithCsrf(sa, csrfA)).toBe(a.id);
		expect(await store.sessionWithCsrf(sb, csrfB)).toBe(b.id);
		expect(await store.sessionWithCsrf(sb, csrfA)).toBeNull();
		expect(await store.sessionWithCsrf(sa, '')).toBeNull();
		expect(await store.sessionWithCsrf(sa, `${csrfA}x`)).toBeNull();
		// Nothing is stored for it, and a rotation of SECRET_KEY keeps it working.
		const rows = await db.selectFrom('sessions').selectAll().execute();
		expect(JSON.stringify(rows)).not.toContain(csrfA);
		const rotated = new HostedStore(db, new SecretBox(`k2:${'n'.repeat(40)},k1:${SECRET}`));
		expect(await rotated.sessionWithCsrf(sa, csrfA)).toBe(a.id);
		await store.endSession(sa);
		expect(await store.sessionCsrf(sa)).toBeNull();
		expect(await store.sessionWithCsrf(sa, csrfA)).toBeNull();
	});

	it('a streamer’s dock actions run one at a time; another streamer’s do not wait; an error frees the lock', async () => {
		const { order, act } = recorder();
		let open!: () => void;
		const gate = new Promise<void>((r) => (open = r));
		const first = store.controlLock('s_a', act('a1', gate));
		const second = store.controlLock('s_a', act('a2'));
		await until(async () => order.includes('a1 in'));
		expect(await store.controlLock('s_b', act('b'))).toBe('b');
		expect(order).toEqual(['a1 in', 'b in', 'b out']);
		open();
		expect(await Promise.all([first, second])).toEqual(['a1', 'a2']);
		expect(order.slice(3)).toEqual(['a1 out', 'a2 in', 'a2 out']);
		await expect(
			store.controlLock('s_a', async () => {
				throw new Error('the upstream refused');
			})
		).rejects.toThrow('the upstream refused');
		expect(await store.controlLock('s_a', act('a3'))).toBe('a3');
		if (onServer) expect(await advisoryLocks(db)).toBe(0);
	});

	it.runIf(onServer)(
		'across database handles (instances), a streamer’s actions wait for each other’s lock, and only theirs',
		async () => {
			const url = await serverUrl(db);
			const other = await openDatabase({ databaseUrl: url });
			try {
				const there = new HostedStore(other, new SecretBox(SECRET));
				const { order, act } = recorder();
				let open!: () => void;
				const gate = new Promise<void>((r) => (open = r));
				const held = store.controlLock('s_x', act('here', gate));
				await until(async () => (await advisoryLocks(db)) === 1);
				const waiting = there.controlLock('s_x', act('there'));
				// The second instance's action waits in pg_advisory_lock; another streamer's runs.
				await until(async () => (await advisoryWaiters(db)) === 1);
				expect(await there.controlLock('s_y', act('y'))).toBe('y');
				expect(order).toEqual(['here in', 'y in', 'y out']);
				open();
				expect(await Promise.all([held, waiting])).toEqual(['here', 'there']);
				expect(order.slice(3)).toEqual(['here out', 'there in', 'there out']);
				expect(await advisoryLocks(db)).toBe(0);
			} finally {
				await other.destroy();
			}
		}
	);

	it.runIf(onServer)(
		'a lock whose holder’s connection ends is free at once for the next action',
		async () => {
			// A holder elsewhere (another instance), on a connection of its own.
			const holder = new pg.Client({ connectionString: await serverUrl(db) });
			holder.on('error', () => {});
			await holder.connect();
			try {
				await holder.query('select pg_advisory_lock($1, hashtext($2))', [
					CONTROL_LOCK_CLASS,
					'control:s_z'
				]);
				const { order, act } = recorder();
				const next = store.controlLock('s_z', act('next'));
				await until(async () => (await advisoryWaiters(db)) === 1);
				expect(order).toEqual([]);
				// The holder's instance dies: the server ends its connection, and the lock with it.
				const { rows } = await sql<{ ended: boolean }>`
					select pg_terminate_backend(pid) as ended from pg_locks
					where locktype = 'advisory' and classid = ${CONTROL_LOCK_CLASS} and granted`.execute(db);
				expect(rows.map((r) => r.ended)).toEqual([true]);
				expect(await next).toBe('next');
				expect(order).toEqual(['next in', 'next out']);
			} finally {
				await holder.end().catch(() => {});
			}
		}
	);
});

/** Control locks granted now, on the whole server. */
async function advisoryLocks(db: Db): Promise<number> {
	const { rows } = await sql<{ n: string }>`select count(*) as n from pg_locks
		where locktype = 'advisory' and classid = ${CONTROL_LOCK_CLASS} and granted`.execute(db);
	return Number(rows[0].n);
}

/** Control locks waited for now. */
async function advisoryWaiters(db: Db): Promise<number> {
	const { rows } = await sql<{ n: string }>`select count(*) as n from pg_locks
		where locktype = 'advisory' and classid = ${CONTROL_LOCK_CLASS} and not granted`.execute(db);
	return Number(rows[0].n);
}
