// The upstream's per-address limit kept across hosted instances (src/hosted/address-ledger.ts):
// two instances on one PostgreSQL call the upstream from one address, three streamers' readers
// flood them through a balancer that shows every client under one address, and tips flow for all
// three. The upstream here tells only each key's budget in its headers (an upstream may show
// either), so nothing but the instances' own shared count keeps the address's limit. The clock of
// the limits is compressed: 80 calls per 10 s per address, 40 per authorization.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { DEMO_TENANTS } from '../../src/sim/index.ts';
import { keyIn } from '../fixtures/hosted.ts';
import {
	dashboard,
	deployment,
	missing,
	pause,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { until } from '../fixtures/sim.ts';

useDeployments();

const PER_IP = 80;
const PER_KEY = 40;
const WINDOW_MS = 10_000;

/**
 * A proxy in front of the simulator that drops the per-address budget's RateLimit-* headers: the
 * instances hear only each key's budget, as from an upstream that reports that one.
 */
async function keyHeadersOnly() {
	let target = '';
	const server = createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const headers = new Headers();
		for (const [k, v] of Object.entries(req.headers))
			if (typeof v === 'string' && !/^(host|connection|content-length)$/i.test(k))
				headers.set(k, v);
		const answer = await fetch(target + req.url, {
			method: req.method,
			headers,
			...(chunks.length ? { body: Buffer.concat(chunks) } : {})
		});
		const out: Record<string, string> = {};
		const perIp = answer.headers.get('ratelimit-limit') === String(PER_IP);
		answer.headers.forEach((v, k) => {
			if (/^(content-length|content-encoding|connection|transfer-encoding)$/i.test(k)) return;
			if (perIp && k.startsWith('ratelimit-')) return;
			out[k] = v;
		});
		res.writeHead(answer.status, out);
		res.end(Buffer.from(await answer.arrayBuffer()));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		via: (baseUrl: string) => {
			const url = new URL(baseUrl);
			target = url.origin;
			return `http://127.0.0.1:${port}${url.pathname}`;
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve()))
	};
}

describe.skipIf(missing)(
	'the calling address’s budget across hosted instances',
	{ timeout: 150_000 },
	() => {
		it('three streamers flooded from one address: every claim goes at once, and the upstream refuses nothing', async () => {
			const proxy = await keyHeadersOnly();
			const policy = {
				perIp: PER_IP,
				perAuthorization: PER_KEY,
				reserve: 0.1,
				claimShare: 0.5,
				windowMs: WINDOW_MS
			};
			const { sim, apps } = await deployment(
				2,
				() => undefined,
				{
					tenants: DEMO_TENANTS,
					perKeyPerMinute: PER_KEY,
					perIpPerMinute: PER_IP,
					rateWindowMs: WINDOW_MS
				},
				(s) => proxy.via(s.baseUrl),
				{ budget: { policy } }
			);
			try {
				const [a, b] = apps;
				const keys: string[] = [];
				for (const tenant of DEMO_TENANTS)
					keys.push(keyIn(await dashboard(a, await signIn(sim, a, b, tenant.id)))!);
				expect(keys).toHaveLength(3);

				let next = 0;
				// The balancer: round robin, every client under the test's one address.
				const call = (key: string, method: string, path: string) =>
					fetch(apps[next++ % apps.length].origin + path, {
						method,
						headers: { 'x-overlay-key': key }
					});
				let flooding = true;
				const reads = new Map<string, number[]>(keys.map((k) => [k, []]));
				// Each streamer's history re-read three times at once every 250 ms (the 1.5 s of a real
				// minute, compressed as the limits are), honouring no 429; deeper than the live view
				// keeps, so each read goes upstream.
				const floods = keys.map(async (key) => {
					while (flooding) {
						const answers = await Promise.all(
							[0, 1, 2].map(() => call(key, 'GET', '/api/tts/history?limit=50'))
						);
						for (const r of answers) {
							reads.get(key)!.push(r.status);
							await r.arrayBuffer();
						}
						await pause(250);
					}
				});
				const claims: number[] = [];
				const tips = DEMO_TENANTS.map(async (tenant, i) => {
					await pause(i * 1000);
					for (let n = 0; n < 8; n++) {
						const tip = sim.control.createTip(
							{ name: `fan_${n}`, amount: 5, message: `tip ${n}`, paid: true },
							tenant.id
						);
						await until(
							() => sim.control.tenant(tenant.id).tts.find(tip.order_id)?.tts_url != null
						);
						claims.push((await call(keys[i], 'POST', `/api/tts/${tip.order_id}/start`)).status);
						await pause(200);
						claims.push((await call(keys[i], 'POST', `/api/tts/${tip.order_id}/finish`)).status);
						await pause(2800);
					}
				});
				await Promise.all(tips);
				flooding = false;
				await Promise.all(floods);

				// Every claim was sent at once and accepted: none was held, the upstream refused nothing.
				expect(claims).toEqual(Array.from({ length: 48 }, () => 200));
				for (const app of apps) expect(app.budgetSnapshot()).toMatchObject({ heldClaims: 0 });
				expect(sim.control.log.requests().filter((r) => r.status === 429)).toEqual([]);
				// The reads were cut to what the address leaves them, and each streamer still read.
				const held = apps.reduce((n, app) => n + app.budgetSnapshot().address.heldReads, 0);
				expect(held).toBeGreaterThan(0);
				for (const statuses of reads.values()) expect(statuses).toContain(200);
				await expectAddressMetrics(a);
			} finally {
				await proxy.close();
			}
		});
	}
);

/** /metrics shows the address's budget across instances and the streamers who read it. */
async function expectAddressMetrics(on: HostedApp): Promise<void> {
	const text = await (await fetch(`${on.origin}/metrics`)).text();
	expect(text).toContain(`tip_upstream_address_limit ${PER_IP}\n`);
	expect(text).toMatch(/^tip_upstream_address_calls\{priority="claim"\} [1-9]\d*$/m);
	expect(text).toMatch(/^tip_upstream_address_instances 2$/m);
	const readers = text.match(
		/^tip_upstream_address_reads_by_streamer\{streamer="s_[\w-]+"\} \d+$/gm
	);
	expect(readers).toHaveLength(3);
}
