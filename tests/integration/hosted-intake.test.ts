// The streamers' intakes on several hosted instances sharing one PostgreSQL (src/hosted/intakes.ts):
// exactly one instance holds a signed-in streamer's intake (one realtime connection to the
// upstream, counted on the simulator), the other instances answer their pages' reads from the view
// it shares, and when the holder stops (SIGTERM's drain) another takes the intake over at once. A
// page's read that names the events its own socket brought (X-Seen-Event) is answered holding
// them on either instance, however soon after them it comes.
// A holder killed outright is in hosted-intake.kill.test.ts.
import { describe, expect, it } from 'vitest';
import { VIEW_DEFAULTS } from '../../src/core/view/live-view.ts';
import { SecretBox } from '../../src/hosted/crypto.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import type { HostedApp } from '../../src/hosted/serve.ts';
import {
	db,
	deployment,
	missing,
	SECRET,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { api, eventually, until, type Sim } from '../fixtures/sim.ts';

useDeployments();

interface Health {
	intakes: { held: number; connected: number; takeovers: number };
}
const health = async (app: HostedApp) =>
	(await (await fetch(`${app.origin}/healthz`)).json()) as Health;

/** The one streamer's overlay key. */
async function overlayKey(): Promise<string> {
	const { id } = await db!.selectFrom('streamers').select('id').executeTakeFirstOrThrow();
	return (await new HostedStore(db!, new SecretBox(SECRET)).overlayKey(id))!;
}

/** A page's read of /api on `app`, naming the events `seen` its socket brought, if any. */
async function read(app: HostedApp, key: string, path: string, seen?: string) {
	const headers: Record<string, string> = { 'x-overlay-key': key };
	if (seen) headers['x-seen-event'] = seen;
	const res = await fetch(`${app.origin}/api${path}`, { headers });
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const withoutModeration = (body: Record<string, unknown>) => ({
	...body,
	items: (body.items as Record<string, unknown>[]).map(({ moderation: _, ...tip }) => tip)
});

const upstreamReads = (sim: Sim, path: string) =>
	sim.control.log.requests().filter((e) => e.method === 'GET' && e.path.split('?')[0] === path)
		.length;

/** The simulator's authenticated sockets: the intakes' (no page opens one here). */
const intakeSockets = (sim: Sim) => sim.control.hub?.authenticatedCount ?? 0;

/** The instance that holds the intake, once exactly one does (and its socket is connected). */
async function holderOf(apps: HostedApp[]): Promise<HostedApp> {
	let holder: HostedApp | undefined;
	await eventually(async () => {
		const all = await Promise.all(apps.map(health));
		const held = apps.filter((_, i) => all[i].intakes.held === 1);
		const total = all.reduce((n, h) => n + h.intakes.held, 0);
		holder = held[0];
		return total === 1 && held.length === 1 && all[apps.indexOf(held[0])].intakes.connected === 1;
	});
	return holder!;
}

/** Whether a queue read's answer holds the tip `orderId`. */
const holds = (q: { body: Record<string, unknown> }, orderId: string) =>
	(q.body.items as { order_id: string }[]).some((i) => i.order_id === orderId);

/** Two instances, the streamer signed in, and which of them holds the intake. */
async function signedIn() {
	const { sim, apps } = await deployment(2);
	await signIn(sim, apps[0], apps[1]);
	const key = await overlayKey();
	const holder = await holderOf(apps);
	return { sim, key, holder, other: apps.find((a) => a !== holder)! };
}

describe.skipIf(missing)('hosted intakes', { timeout: 90_000 }, () => {
	it('one instance holds the intake; the other answers its pages from the shared view, as the upstream would', async () => {
		const { sim, key, other } = await signedIn();
		expect(intakeSockets(sim)).toBe(1);

		// A tip well after the view's first answers is not in doubt (LiveView.tipInDoubt): the holder
		// applies it from its event, with no read again to count among the reads below.
		await new Promise((r) => setTimeout(r, VIEW_DEFAULTS.doubtMs + 500));
		const tip = await api(sim, 'POST', '/tips', { body: { name: 'Ada', amount: 7, paid: true } });
		const orderId = tip.body.tip.order_id as string;
		// Until the copy holds the tip with its audio (tip.tts_ready), as the upstream will below.
		await eventually(async () => {
			const q = await read(other, key, '/tts/queue');
			const items = q.body.items as { order_id: string; tts_url: string | null }[];
			return q.status === 200 && items.some((i) => i.order_id === orderId && i.tts_url);
		});
		// The upstream's answer, as a page gets it: each tip with its moderation (moderator.ts).
		const fresh = await api(sim, 'GET', '/tts/queue');
		const before = upstreamReads(sim, '/tts/queue');
		// Many pages on the other instance: none reads the upstream, each answer is the upstream's.
		const answers = await Promise.all(
			Array.from({ length: 20 }, () => read(other, key, '/tts/queue'))
		);
		for (const a of answers) {
			expect(a.status).toBe(200);
			expect(withoutModeration(a.body)).toEqual(fresh.body);
		}
		const others = ['/counters', '/leaderboard', '/media/queue', '/tts/history', '/media/history'];
		const counted = new Map(others.map((p) => [p, upstreamReads(sim, p)]));
		for (const path of others) expect((await read(other, key, path)).status, path).toBe(200);
		for (const [path, n] of counted) expect(upstreamReads(sim, path), path).toBe(n);
		expect(upstreamReads(sim, '/tts/queue')).toBe(before);
		expect(intakeSockets(sim)).toBe(1);
		// The account: read once upstream by the other instance for its pages, then kept.
		const me = upstreamReads(sim, '/me');
		for (let i = 0; i < 5; i++) expect((await read(other, key, '/me')).status).toBe(200);
		expect(upstreamReads(sim, '/me') - me).toBe(1);
	});

	it('a read naming the events the page heard is answered holding them, from the view or else upstream', async () => {
		const { sim, key, holder, other } = await signedIn();
		await eventually(async () => (await read(other, key, '/tts/queue')).status === 200);
		const heard: string[] = [];
		for (let i = 0; i < 4; i++) {
			const tip = await api(sim, 'POST', '/tips', { body: { name: 'Cy', amount: 2, paid: true } });
			const orderId = tip.body.tip.order_id as string;
			heard.push(sim.control.log.events('tip.created').find((e) => e.order_id === orderId)!.id);
			// At once, as a page whose own socket brought the tip first: each instance waits for it.
			const [there, here] = await Promise.all(
				[other, holder].map((app) => read(app, key, '/tts/queue', heard.join(',')))
			);
			expect(holds(there, orderId) && holds(here, orderId)).toBe(true);
		}
		// An event the view never has (here, one that never was): past the wait, read upstream.
		const before = upstreamReads(sim, '/tts/queue');
		const tip = await api(sim, 'POST', '/tips', { body: { name: 'Di', amount: 1, paid: true } });
		const q = await read(other, key, '/tts/queue', 'evt_never_sent');
		expect(q.status).toBe(200);
		expect(holds(q, tip.body.tip.order_id as string)).toBe(true);
		expect(upstreamReads(sim, '/tts/queue') - before).toBeGreaterThanOrEqual(1);
	});

	it('the holder that stops gives its lease up, and the other instance takes the intake over at once', async () => {
		const { sim, apps } = await deployment(2);
		await signIn(sim, apps[0], apps[0]);
		const key = await overlayKey();
		const holder = await holderOf(apps);
		const other = apps.find((a) => a !== holder)!;
		await holder.close();
		// Taken at the other's next tick (how soon: npm run bench:hosted, takeover).
		await eventually(async () => (await health(other)).intakes.connected === 1);
		expect((await health(other)).intakes.takeovers).toBe(1);
		await until(() => intakeSockets(sim) === 1);
		const tip = await api(sim, 'POST', '/tips', { body: { name: 'Bea', amount: 3, paid: true } });
		await eventually(async () =>
			holds(await read(other, key, '/tts/queue'), tip.body.tip.order_id as string)
		);
	});
});
