// The streamers' webhook endpoints (src/hosted/webhook-endpoints.ts) on both databases: one per
// streamer, the first kept; the signing secret sealed (nowhere in clear in any row); a delivery's
// endpoint id names its one streamer; Disconnect forgets it.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { randomToken, SecretBox } from '../../src/hosted/crypto.ts';
import type { Db } from '../../src/hosted/db.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import { WebhookEndpoints } from '../../src/hosted/webhook-endpoints.ts';
import { grant, me, openForSuite, SECRET, storeEngines } from '../fixtures/hosted-store.ts';

const secretOf = (n: number) => `whsec_${'s'.repeat(8)}${n}_${randomToken()}`;

describe.each(storeEngines())('webhook endpoints on %s', (_engine, open) => {
	let db: Db;
	let store: HostedStore;
	let hooks: WebhookEndpoints;
	openForSuite(open, (o) => {
		({ db, store } = o);
		hooks = new WebhookEndpoints(db, new SecretBox(SECRET));
	});
	const streamer = async (n: number) => (await store.signedIn(me(n), grant(n))).streamer.id;

	it('keeps the secret sealed: it appears in no row, and opens for its endpoint id', async () => {
		const id = await streamer(1);
		const secret = secretOf(1);
		const hook = { hookId: randomToken(), endpointId: 'we_1' };
		expect(await hooks.add(id, hook, secret)).toBe(true);
		const { rows } = await sql<{ t: string }>`
			select string_agg(to_jsonb(w)::text, ' ') as t from webhook_endpoints w`.execute(db);
		expect(rows[0].t).toContain(hook.hookId);
		expect(rows[0].t).not.toContain(secret.slice('whsec_'.length));
		expect(await hooks.byHook(hook.hookId)).toEqual({ streamer: id, secret });
		expect(await hooks.of(id)).toEqual(hook);
	});

	it('keeps the first endpoint of a streamer, and says a second is extra', async () => {
		const id = await streamer(2);
		const first = { hookId: randomToken(), endpointId: 'we_2a' };
		const second = { hookId: randomToken(), endpointId: 'we_2b' };
		expect(await hooks.add(id, first, secretOf(2))).toBe(true);
		expect(await hooks.add(id, second, secretOf(3))).toBe(false);
		expect(await hooks.of(id)).toEqual(first);
		expect(await hooks.byHook(second.hookId)).toBeNull();
	});

	it('names only its own streamer, and nothing for an id not given out or not well formed', async () => {
		const a = await streamer(3);
		const b = await streamer(4);
		const ha = { hookId: randomToken(), endpointId: 'we_3' };
		const hb = { hookId: randomToken(), endpointId: 'we_4' };
		await hooks.add(a, ha, secretOf(4));
		await hooks.add(b, hb, secretOf(5));
		expect((await hooks.byHook(ha.hookId))?.streamer).toBe(a);
		expect((await hooks.byHook(hb.hookId))?.streamer).toBe(b);
		for (const id of [randomToken(), 'short', `${ha.hookId}x`, "' or 1=1 --"])
			expect(await hooks.byHook(id)).toBeNull();
	});

	it('forgets a streamer’s endpoint, leaving the others', async () => {
		const a = await streamer(5);
		const b = await streamer(6);
		const ha = { hookId: randomToken(), endpointId: 'we_5' };
		const hb = { hookId: randomToken(), endpointId: 'we_6' };
		await hooks.add(a, ha, secretOf(6));
		await hooks.add(b, hb, secretOf(7));
		expect(await hooks.remove(a)).toEqual(ha);
		expect(await hooks.byHook(ha.hookId)).toBeNull();
		expect(await hooks.remove(a)).toBeNull();
		expect((await hooks.byHook(hb.hookId))?.streamer).toBe(b);
	});

	it('does not open a secret sealed for another streamer (the seal is bound to its row)', async () => {
		const a = await streamer(7);
		const b = await streamer(8);
		const ha = { hookId: randomToken(), endpointId: 'we_7' };
		await hooks.add(a, ha, secretOf(8));
		await hooks.add(b, { hookId: randomToken(), endpointId: 'we_8' }, secretOf(9));
		// A row whose sealed secret was copied from another streamer's fails to open.
		await sql`update webhook_endpoints set secret = (select secret from webhook_endpoints
			where streamer_id = ${a}) where streamer_id = ${b}`.execute(db);
		const bHook = (await hooks.of(b))!.hookId;
		await expect(hooks.byHook(bHook)).rejects.toThrow();
	});
});
