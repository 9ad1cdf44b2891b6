// Webhooks through two hosted instances on one PostgreSQL with an https PUBLIC_URL: the endpoint a
// sign-in registered through one instance verifies its deliveries on the other (the secret is
// the database's, sealed), whichever instance the load balancer hands a delivery to, and each
// streamer's deliveries reach their own streamer only.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { serveHosted, type HostedApp } from '../../src/hosted/serve.ts';
import { DEMO_TENANTS } from '../../src/sim/index.ts';
import { MemoryActivity } from '../fixtures/activity-recorder.ts';
import {
	freshDatabase,
	missing,
	pg,
	SECRET,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { checkSettings } from '../fixtures/settings.ts';
import { eventually, simsPerTest } from '../fixtures/sim.ts';

useDeployments();
const start = simsPerTest();
const PUBLIC = 'https://kit.example.com';
const [ADA, BOB] = DEMO_TENANTS;

async function instances(n: number) {
	const sim = await start({ tenants: DEMO_TENANTS.slice(0, 2), webhookRetryMs: 20 });
	await freshDatabase();
	const { app } = sim.control.oauth.registerApp({
		secret: null,
		redirectUris: [`${PUBLIC}/auth/callback`]
	});
	// One recorder for the deployment, as the database-backed one is.
	const activity = new MemoryActivity();
	const apps: HostedApp[] = [];
	for (let i = 0; i < n; i++)
		apps.push(
			await serveHosted({
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
					wsUrl: sim.wsUrl
				},
				dist: '/nonexistent',
				checkSettings,
				webhookSink: activity
			})
		);
	return { sim, apps, activity, close: () => Promise.all(apps.map((a) => a.close())) };
}

const tipNames = (activity: MemoryActivity, streamer: string) =>
	activity
		.of(streamer)
		.map((r) => (r.event.data as { tip?: { name?: string } }).tip?.name)
		.filter((n) => n !== undefined);

describe.skipIf(missing)(
	'webhooks across two instances on PostgreSQL',
	{ timeout: 150_000 },
	() => {
		it('verifies on either instance what a sign-in on the other registered, for its streamer only', async () => {
			const { sim, apps, activity, close } = await instances(2);
			try {
				await signIn(sim, apps[0], apps[0], ADA.id, PUBLIC);
				await signIn(sim, apps[1], apps[1], BOB.id, PUBLIC);
				for (const [i, app] of apps.entries()) {
					sim.control.webhooks.targets.set(PUBLIC, app.origin);
					sim.control.createTip({ name: `Ada's ${i}`, amount: 1, message: 'hi' }, ADA.id);
					sim.control.createTip({ name: `Bob's ${i}`, amount: 1, message: 'hi' }, BOB.id);
					await eventually(() =>
						activity.streamers().some((s) => tipNames(activity, s).includes(`Bob's ${i}`))
					);
					await eventually(() =>
						activity.streamers().some((s) => tipNames(activity, s).includes(`Ada's ${i}`))
					);
				}
				const [a, b] = [`Ada's 0`, `Bob's 0`].map((name) =>
					activity.streamers().find((s) => tipNames(activity, s).includes(name))
				);
				expect(a).not.toBe(b);
				expect(tipNames(activity, a!).sort()).toEqual([`Ada's 0`, `Ada's 1`]);
				expect(tipNames(activity, b!).sort()).toEqual([`Bob's 0`, `Bob's 1`]);
				// Ada's secret does not open Bob's endpoint on either instance.
				const ada = sim.control.webhooks.list(ADA.id)[0];
				const bob = sim.control.webhooks.list(BOB.id)[0];
				const body = JSON.stringify({
					id: 'evt_crossed_pg',
					type: 'x',
					created_at: new Date().toISOString(),
					data: {}
				});
				const t = Math.floor(Date.now() / 1000);
				const mac = createHmac('sha256', sim.control.webhooks.secretOf(ada.id)!)
					.update(`${t}.${body}`)
					.digest('hex');
				for (const app of apps) {
					const res = await fetch(app.origin + new URL(bob.url).pathname, {
						method: 'POST',
						headers: { 'service-signature': `t=${t},v1=${mac}` },
						body
					});
					expect(res.status).toBe(401);
				}
			} finally {
				await close();
			}
		});
	}
);
