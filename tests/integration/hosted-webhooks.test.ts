// Hosted mode's second intake, the upstream's signed webhooks (docs/hosted.md, webhooks), on the
// hosted demo's simulator with two streamers and an https PUBLIC_URL whose deliveries the simulator
// sends to the instance over loopback: registered once at sign-in with its secret sealed, every
// delivery verified, a verified event recorded once whatever the retries, everything else a bare
// 401 that records nothing, and each streamer's deliveries kept to that streamer.
import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { DEMO_TENANTS } from '../../src/sim/index.ts';
import { MemoryActivity } from '../fixtures/activity-recorder.ts';
import { Browser, startHosted } from '../fixtures/hosted.ts';
import { freePort } from '../fixtures/ports.ts';
import { eventually, withSim, type Sim } from '../fixtures/sim.ts';

const PUBLIC = 'https://kit.example.com';
const [ADA, BOB] = DEMO_TENANTS;

// A deployment takes seconds to start (a database migrated, two sign-ins): one per suite.
const SETUP_MS = 120_000;
const closing: (() => Promise<unknown>)[] = [];
afterAll(async () => {
	for (const close of closing.splice(0)) await close();
});

/** Two streamers signed in on an instance whose PUBLIC_URL is `publicUrl`. */
async function deployment(publicUrl: string | null = PUBLIC) {
	const sim = await withSim({ tenants: DEMO_TENANTS.slice(0, 2), webhookRetryMs: 20 });
	const activity = new MemoryActivity();
	const h = await startHosted(sim, {
		port: await freePort(),
		publicUrl: publicUrl ?? undefined,
		activity
	});
	closing.push(
		() => h.close(),
		() => sim.close()
	);
	if (publicUrl) sim.control.webhooks.targets.set(publicUrl, h.origin);
	for (const tenant of [ADA, BOB]) {
		const back = await new Browser(h.publicUrl, h.origin).signIn(sim, tenant.id);
		expect(back.headers.get('location')).toBe('/dashboard');
	}
	return { sim, h, activity };
}

/** The tenant's one endpoint as the simulator holds it, its secret, and its path on the instance. */
function endpointOf(sim: Sim, tenantId: string) {
	const [endpoint, ...more] = sim.control.webhooks.list(tenantId);
	expect(more).toEqual([]);
	return {
		endpoint,
		secret: sim.control.webhooks.secretOf(endpoint.id)!,
		path: new URL(endpoint.url).pathname
	};
}

/** The streamer (our id) whose recorded events are the tenant's tips named `name`. */
const streamerOfTip = (activity: MemoryActivity, name: string) =>
	activity
		.streamers()
		.find((s) =>
			activity.of(s).some((r) => (r.event.data as { tip?: { name?: string } }).tip?.name === name)
		);

/** An event the intake's view can apply too (a removal of a tip it does not have). */
const envelope = (id: string, type = 'queue.tts.removed') =>
	JSON.stringify({
		id,
		type,
		created_at: new Date().toISOString(),
		data: { order_id: 'tip_1_abc' }
	});
const sign = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) =>
	`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

function deliver(h: HostedApp, path: string, body: string, signature?: string) {
	return fetch(h.origin + path, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			...(signature === undefined ? {} : { 'service-signature': signature })
		},
		body
	});
}

const recordedIds = (activity: MemoryActivity) =>
	activity.streamers().flatMap((s) => activity.of(s).map((r) => r.event.id));

let d: Awaited<ReturnType<typeof deployment>>;
beforeAll(async () => {
	d = await deployment();
}, SETUP_MS);

describe('webhooks in hosted mode with an https PUBLIC_URL', () => {
	it('registers one endpoint per streamer at sign-in and keeps its secret sealed', async () => {
		const { sim, h } = d;
		const scopes = [...sim.control.oauth.authorizations.values()].map((a) => a.scopes);
		for (const granted of scopes) expect(granted).toContain('webhooks:manage');
		const ada = endpointOf(sim, ADA.id);
		const bob = endpointOf(sim, BOB.id);
		expect(ada.endpoint.url).toMatch(/^https:\/\/kit\.example\.com\/webhooks\/[A-Za-z0-9_-]{43}$/);
		expect(ada.path).not.toBe(bob.path);
		expect(ada.endpoint.events).toEqual(['*']);
		const { rows } = await sql<{ t: string }>`
			select string_agg(t::text, ' ') as t from (
				select to_jsonb(w) as t from webhook_endpoints w
				union all select to_jsonb(g) from grants g
				union all select to_jsonb(s) from streamers s) all_rows`.execute(h.db);
		expect(rows[0].t).toContain(ada.endpoint.id);
		expect(rows[0].t).not.toContain(ada.secret);
		expect(rows[0].t).not.toContain(ada.secret.slice('whsec_'.length));
		expect(rows[0].t).not.toContain(bob.secret);
	});

	it('does not register another endpoint when the streamer signs in again', async () => {
		const { sim, h } = d;
		const before = endpointOf(sim, ADA.id).endpoint.id;
		await new Browser(h.publicUrl, h.origin).signIn(sim, ADA.id);
		expect(endpointOf(sim, ADA.id).endpoint.id).toBe(before);
	});

	it('records a tip delivered by webhook once, for its own streamer only', async () => {
		const { sim, activity } = d;
		const tip = sim.control.createTip({ name: 'Webby', amount: 3, message: 'by hook' }, ADA.id);
		await eventually(() => streamerOfTip(activity, 'Webby') !== undefined);
		const ada = streamerOfTip(activity, 'Webby')!;
		const created = activity.of(ada).filter((r) => r.event.type === 'tip.created');
		expect(created).toHaveLength(1);
		expect(created[0].via).toBe('webhook');
		expect((created[0].event.data as { tip: { order_id: string } }).tip.order_id).toBe(
			tip.order_id
		);
		// Bob's streamer heard nothing of Ada's tip.
		for (const other of activity.streamers().filter((s) => s !== ada))
			expect(activity.of(other).map((r) => r.event.id)).not.toContain(created[0].event.id);
		const attempts = () =>
			sim.control.webhooks.attempts.filter((a) => a.eventId === created[0].event.id);
		await eventually(() => attempts().length > 0);
		expect(attempts().map((a) => [a.attempt, a.status])).toEqual([[1, 204]]);
	});

	it('records an event delivered again (attempt 2, signed afresh) once', async () => {
		const { sim, activity } = d;
		const since = sim.control.webhooks.attempts.length;
		const fresh = () => sim.control.webhooks.attempts.slice(since);
		sim.control.faults.duplicateDeliveries = 1;
		sim.control.createTip({ name: 'Twice', amount: 2, message: 'again' }, ADA.id);
		await eventually(() => fresh().some((a) => a.attempt === 2));
		const second = fresh().find((b) => b.attempt === 2)!;
		const again = fresh().filter((a) => a.eventId === second.eventId);
		expect(again.map((a) => [a.attempt, a.status])).toEqual([
			[1, 204],
			[2, 204]
		]);
		await eventually(() => recordedIds(activity).includes(again[0].eventId));
		expect(recordedIds(activity).filter((id) => id === again[0].eventId)).toHaveLength(1);
	});

	it('retries a delivery the instance could not take, and records it once it does', async () => {
		const { sim, h, activity } = d;
		// Deliveries go nowhere for a while: the simulator's attempts fail and are tried again.
		const since = sim.control.webhooks.attempts.length;
		const fresh = () => sim.control.webhooks.attempts.slice(since);
		sim.control.webhooks.targets.set(PUBLIC, 'http://127.0.0.1:1');
		sim.control.createTip({ name: 'Later', amount: 1, message: 'retried' }, ADA.id);
		await eventually(() => fresh().some((a) => a.status === 0));
		sim.control.webhooks.targets.set(PUBLIC, h.origin);
		await eventually(() => streamerOfTip(activity, 'Later') !== undefined);
		// Its answer reaches the simulator after the instance applied it: wait for the simulator's note.
		await eventually(() => fresh().some((a) => a.status === 204 && a.attempt > 1));
	});
});

describe('a delivery that does not verify', () => {
	it.each([
		['a forged signature', (secret: string, body: string) => sign(secret + 'x', body)],
		[
			'a t older than 300 s',
			(secret: string, body: string) => sign(secret, body, Math.floor(Date.now() / 1000) - 301)
		],
		['a body altered after signing', (secret: string, body: string) => sign(secret, body + ' ')],
		['no signature header', () => undefined]
	])('is answered 401 with nothing else, and records nothing: %s', async (name, signed) => {
		const { sim, h, activity } = d;
		const { secret, path } = endpointOf(sim, ADA.id);
		const id = `evt_refused_${name.replace(/\W+/g, '_')}`;
		const body = envelope(id);
		const refused = async () =>
			Number(
				/tip_webhook_deliveries_total\{outcome="refused"\} (\d+)/.exec(
					await (await fetch(h.origin + '/metrics')).text()
				)![1]
			);
		const before = await refused();
		const res = await deliver(h, path, body, signed(secret, body));
		expect(res.status).toBe(401);
		expect(await res.text()).toBe('');
		await new Promise((r) => setTimeout(r, 100));
		expect(recordedIds(activity)).not.toContain(id);
		// The same delivery signed right goes through: what was refused was the signature alone.
		expect((await deliver(h, path, body, sign(secret, body))).status).toBe(204);
		await eventually(() => recordedIds(activity).includes(id));
		expect(recordedIds(activity).filter((kept) => kept === id)).toHaveLength(1);
		expect(await refused()).toBe(before + 1);
	});

	it('is refused for an endpoint id the instance never gave out, or another streamer’s', async () => {
		const { sim, h, activity } = d;
		const ada = endpointOf(sim, ADA.id);
		const bob = endpointOf(sim, BOB.id);
		const body = envelope('evt_crossed_1');
		for (const path of [`/webhooks/${'A'.repeat(43)}`, '/webhooks/short', bob.path]) {
			const res = await deliver(h, path, body, sign(ada.secret, body));
			expect(res.status).toBe(401);
			expect(await res.text()).toBe('');
		}
		await new Promise((r) => setTimeout(r, 100));
		expect(recordedIds(activity)).not.toContain('evt_crossed_1');
	});

	it('replayed with a fresh valid signature adds nothing', async () => {
		const { sim, h, activity } = d;
		const { secret, path } = endpointOf(sim, ADA.id);
		const body = envelope('evt_replayed_1');
		const calls = activity.calls;
		expect((await deliver(h, path, body, sign(secret, body))).status).toBe(204);
		expect(
			(await deliver(h, path, body, sign(secret, body, Math.floor(Date.now() / 1000) + 1))).status
		).toBe(204);
		await eventually(() => activity.calls >= calls + 2);
		expect(recordedIds(activity).filter((id) => id === 'evt_replayed_1')).toHaveLength(1);
	});

	it('keeps an event of an unknown type, and drops a malformed one without a crash', async () => {
		const { sim, h, activity } = d;
		const { secret, path } = endpointOf(sim, ADA.id);
		const unknown = envelope('evt_unknown_1', 'brand.new_thing');
		const calls = activity.calls;
		const malformed = JSON.stringify({ type: 'tip.created', data: {} });
		expect((await deliver(h, path, malformed, sign(secret, malformed))).status).toBe(204);
		expect((await deliver(h, path, unknown, sign(secret, unknown))).status).toBe(204);
		await eventually(() => recordedIds(activity).includes('evt_unknown_1'));
		expect(activity.calls).toBe(calls + 1);
		expect((await fetch(h.origin + '/healthz')).status).toBe(200);
	});

	it('is refused 413 above the body limit, before its signature is looked at', async () => {
		const { sim, h } = d;
		const { secret, path } = endpointOf(sim, ADA.id);
		const body = envelope('evt_big_1').replace(
			'"data":{',
			`"data":{"pad":"${'x'.repeat(300_000)}",`
		);
		expect((await deliver(h, path, body, sign(secret, body))).status).toBe(413);
	});
});

describe('webhooks without an https PUBLIC_URL', () => {
	it(
		'registers no endpoint, and a sign-in does not ask for webhooks:manage',
		{ timeout: SETUP_MS },
		async () => {
			const { sim } = await deployment(null);
			expect(sim.control.webhooks.list(ADA.id)).toEqual([]);
			expect(sim.control.webhooks.list(BOB.id)).toEqual([]);
			expect(sim.control.log.requests({ path: /webhook/ })).toEqual([]);
			const scopes = [...sim.control.oauth.authorizations.values()].flatMap((a) => a.scopes);
			expect(scopes).toContain('tts:read');
			expect(scopes).not.toContain('webhooks:manage');
		}
	);
});

describe('webhooks and the intake, recorded by the Activity', () => {
	it(
		'a webhook delivery of an event the intake already recorded adds nothing',
		{ timeout: SETUP_MS },
		async () => {
			const sim = await withSim({ tenants: DEMO_TENANTS.slice(0, 1), webhookRetryMs: 20 });
			const h = await startHosted(sim, { port: await freePort(), publicUrl: PUBLIC });
			closing.push(
				() => h.close(),
				() => sim.close()
			);
			sim.control.webhooks.targets.set(PUBLIC, h.origin);
			await new Browser(h.publicUrl, h.origin).signIn(sim, ADA.id);
			// The streamer's intake is held and connected: it hears the stream itself.
			await eventually(async () => {
				const health = (await (await fetch(h.origin + '/healthz')).json()) as {
					intakes?: { connected: number };
				};
				return (health.intakes?.connected ?? 0) >= 1;
			}, 60_000);
			const tip = sim.control.createTip({ name: 'Once', amount: 4, message: 'only once' }, ADA.id);
			const tipRows = async () =>
				(
					await sql<{ n: number | string }>`select count(*) as n from activity_entries
						where kind = 'tip' and entry::text like ${`%${tip.order_id}%`}`.execute(h.db)
				).rows[0].n;
			await eventually(async () => Number(await tipRows()) === 1);
			const created = sim.control.log
				.events('tip.created')
				.find((e) => e.order_id === tip.order_id)!;
			// The upstream's own delivery of it came too, and was taken.
			await eventually(() =>
				sim.control.webhooks.attempts.some((a) => a.eventId === created.id && a.status === 204)
			);
			const before = await sql<{
				n: number | string;
			}>`select count(*) as n from activity_entries`.execute(h.db);
			// And once more, signed afresh (a retry, or a replay).
			const { secret, path } = endpointOf(sim, ADA.id);
			const body = JSON.stringify({
				id: created.id,
				type: 'tip.created',
				created_at: new Date().toISOString(),
				data: { tip }
			});
			expect((await deliver(h, path, body, sign(secret, body))).status).toBe(204);
			await new Promise((r) => setTimeout(r, 500));
			expect(Number(await tipRows())).toBe(1);
			const after = await sql<{
				n: number | string;
			}>`select count(*) as n from activity_entries`.execute(h.db);
			expect(Number(after.rows[0].n)).toBe(Number(before.rows[0].n));
			const applied = await sql<{ n: number | string }>`select count(*) as n from activity_events
				where event_id = ${created.id}`.execute(h.db);
			expect(Number(applied.rows[0].n)).toBe(1);
		}
	);
});
