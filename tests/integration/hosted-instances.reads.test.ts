// Alerts first across hosted instances: two instances on one PostgreSQL behind a load
// balancer, one streamer, a flood of reads through both while tips flow. Each instance keeps the
// claims' share of the streamer's window from the count the upstream reports, so no claim is held
// or refused on either; and a reader over its allowance is answered 429 by the instance it reached
// and counted for its streamer in that instance's /metrics. A read ticket one instance handed out
// is good on the others (the key comes from SECRET_KEY), once per instance.
import { describe, expect, it } from 'vitest';
import { UNLIMITED_READS } from '../../src/core/read-allowance.ts';
import type { HostedApp } from '../../src/hosted/serve.ts';
import {
	dashboard,
	deployment,
	missing,
	pause,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { until, type Sim } from '../fixtures/sim.ts';

useDeployments();

const keyOf = async (sim: Sim, apps: HostedApp[]) => {
	const html = await dashboard(apps[1], await signIn(sim, apps[0], apps[1]));
	return /\/widget\/tts\?key=([A-Za-z0-9_-]{43})/.exec(html)![1];
};

describe.skipIf(missing)('reads and claims across hosted instances', { timeout: 120_000 }, () => {
	it('a flood of reads through both instances holds back no claim on either', async () => {
		// 40 calls per 10-second window per authorization (a minute's 240, scaled).
		const { sim, apps } = await deployment(
			2,
			() => undefined,
			{ perKeyPerMinute: 40, perIpPerMinute: 100_000, rateWindowMs: 10_000 },
			undefined,
			{
				budget: {
					policy: {
						perIp: 100_000,
						perAuthorization: 40,
						reserve: 0.1,
						claimShare: 0.5,
						windowMs: 10_000
					}
				},
				readLimits: UNLIMITED_READS
			}
		);
		const key = await keyOf(sim, apps);
		let next = 0;
		// The load balancer: round robin.
		const call = (method: string, path: string) =>
			fetch(apps[next++ % apps.length].origin + path, {
				method,
				headers: { 'x-overlay-key': key }
			});
		let flooding = true;
		const reads: Promise<Response>[] = [];
		const flood = (async () => {
			for (let i = 0; flooding; i++) {
				for (let n = 0; n < 3; n++) reads.push(call('GET', '/api/tts/queue'));
				reads.push(call('GET', `/api/tts/history?limit=${(i % 50) + 1}`));
				await pause(150);
			}
		})();
		const claims: number[] = [];
		for (let i = 0; i < 16; i++) {
			const tip = sim.control.createTip({ name: 'Viewer', amount: 5, message: `tip ${i}` });
			await until(() => sim.control.model.tts.find(tip.order_id)?.tts_url != null);
			claims.push((await call('POST', `/api/tts/${tip.order_id}/start`)).status);
			await pause(200);
			claims.push((await call('POST', `/api/tts/${tip.order_id}/finish`)).status);
			await pause(1050);
		}
		flooding = false;
		await flood;
		const answered = await Promise.all(reads);

		expect(claims).toEqual(claims.map(() => 200));
		for (const app of apps) expect(app.budgetSnapshot()).toMatchObject({ heldClaims: 0 });
		const upstream = sim.control.log.requests();
		expect(upstream.filter((r) => r.status === 429)).toEqual([]);
		// The flood was cut: held by both instances, and fewer calls sent than reads made.
		expect(apps.every((a) => a.budgetSnapshot().held > 0)).toBe(true);
		expect(upstream.filter((r) => r.method === 'GET').length).toBeLessThan(answered.length / 2);
	});

	it('a reader over its allowance is answered 429 and counted for its streamer in /metrics', async () => {
		const { sim, apps } = await deployment(2);
		const key = await keyOf(sim, apps);
		const [a, b] = apps;
		// Reads the live view cannot answer (deeper than the rows it keeps): each goes upstream.
		const reads = await Promise.all(
			Array.from({ length: 80 }, () =>
				fetch(`${a.origin}/api/tts/history?limit=50`, { headers: { 'x-overlay-key': key } })
			)
		);
		const refused = reads.filter((r) => r.status === 429);
		// The address's burst is 60 reads at once.
		expect(refused).toHaveLength(20);
		expect(Number(refused[0].headers.get('Retry-After'))).toBeGreaterThan(0);
		const metrics = await (await fetch(`${a.origin}/metrics`)).text();
		expect(metrics).toMatch(/^tip_reads_refused_total\{streamer="s_[\w-]+",by="address"\} 20$/m);
		// The other instance keeps its own allowance.
		const other = await fetch(`${b.origin}/api/tts/queue`, { headers: { 'x-overlay-key': key } });
		expect(other.status).toBe(200);
		expect(await (await fetch(`${b.origin}/metrics`)).text()).not.toMatch(
			/tip_reads_refused_total\{/
		);
	});
});

describe.skipIf(missing)('read tickets across hosted instances', { timeout: 120_000 }, () => {
	it('a ticket one instance handed out is good on the other, once there', async () => {
		// Two reads per streamer and instance, then none for a long while.
		const readLimits = { key: { burst: 2, perS: 0.001 }, address: { burst: 1000, perS: 1000 } };
		const { sim, apps } = await deployment(2, () => undefined, {}, undefined, { readLimits });
		const key = await keyOf(sim, apps);
		const [a, b] = apps;
		const read = (on: HostedApp, ticket?: string) =>
			fetch(`${on.origin}/api/tts/queue`, {
				headers: { 'x-overlay-key': key, ...(ticket ? { 'x-read-ticket': ticket } : {}) }
			});
		const minted = await fetch(`${a.origin}/token`, {
			method: 'POST',
			headers: { 'x-overlay-key': key }
		});
		expect(minted.status).toBe(200);
		const [ticket] = minted.headers.get('x-read-ticket')!.split(',');
		for (let i = 0; i < 2; i++) expect((await read(b)).status).toBe(200);
		expect((await read(b)).status).toBe(429);
		const honoured = await read(b, ticket);
		expect(honoured.status).toBe(200);
		expect(honoured.headers.get('x-read-ticket')).toMatch(/^[\w.-]+$/);
		// Replayed on the same instance: a plain read, over the allowance.
		const replayed = await read(b, ticket);
		expect(replayed.status).toBe(429);
		expect(replayed.headers.get('x-read-ticket')).toBeNull();
	});
});
