// Pages read the live view: the token endpoint on a real port (src/server/serve.ts) in front of the
// simulator holds one realtime connection of its own, and the pages' reads of the queues, the
// recent lists, the counters, a tip goal and the leaderboard are answered from its view, as the
// upstream would answer them, however many pages ask: counted in the simulator's log, the upstream
// is read once for each (the intake's read), and none is refused for the read allowance. A claim
// runner's queue read with a fresh read ticket still goes to the upstream. The account (GET /me)
// and the dock's reads: view-reads.account.test.ts, view-reads.dock.test.ts.
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_LIMITS } from '../../src/core/read-allowance.ts';
import { VIEW_PARTS } from '../../src/core/view/parts.ts';
import { api, readyTip, simsPerTest, until } from '../fixtures/sim.ts';
import { send, simUpstream, tokenEndpoint } from '../fixtures/token-endpoint.ts';
import { FakeIntake } from '../fixtures/view-source.ts';
import {
	GOAL_OVERLAY,
	OVERLAY_KEY,
	read,
	served,
	serveOn,
	upstreamCalls
} from './view-reads.setup.ts';

const start = simsPerTest();

/** The reads the widgets make that the view answers, and the upstream path each one reads. */
const PAGE_READS: [string, string][] = [
	['/tts/queue', '/tts/queue'],
	['/media/queue', '/media/queue'],
	['/media/status', '/media/queue'],
	['/tts/history?limit=10', '/tts/history'],
	['/media/history', '/media/history'],
	['/counters', '/counters'],
	[`/overlays/${GOAL_OVERLAY}/tip-goal`, `/overlays/${GOAL_OVERLAY}/tip-goal`],
	['/leaderboard?limit=5', '/leaderboard']
];

describe('pages read the live view', { timeout: 30_000 }, () => {
	it('answers many pages’ reads as the upstream would, at the cost of one upstream read each, none refused', async () => {
		const { sim, app } = await served();
		const first = await readyTip(sim, { name: 'Ada', amount: 7 });
		await until(() => app.intake!.view.tts.items.some((t) => t.order_id === first.order_id));
		await until(() => VIEW_PARTS.every((p) => app.intake!.view.sure(p)));
		const before = new Map(PAGE_READS.map(([, up]) => [up, upstreamCalls(sim, 'GET', up)]));
		expect(before.get('/tts/queue')).toBe(1);

		// More pages than the address's read allowance would let through.
		const pages = Math.ceil(DEFAULT_READ_LIMITS.address.burst / PAGE_READS.length) + 2;
		const answers = await Promise.all(
			Array.from({ length: pages }, () => Promise.all(PAGE_READS.map(([p]) => read(app, p))))
		);
		for (const page of answers) for (const a of page) expect(a.status).toBe(200);
		for (const [up, n] of before) expect(upstreamCalls(sim, 'GET', up), up).toBe(n);

		// Each answer is what the same read forwarded to the upstream answers (moderated alike).
		const forwarding = await serveOn(sim, { intake: false });
		for (const [i, [path]] of PAGE_READS.entries())
			expect(answers[0][i].body, path).toEqual((await read(forwarding, path)).body);
		expect(answers.at(-1)![0].body.items.map((t: { order_id: string }) => t.order_id)).toEqual([
			first.order_id
		]);

		// A tip comes: the pages see it from the view, which reads no queue for it.
		const queueReads = upstreamCalls(sim, 'GET', '/tts/queue');
		const second = await readyTip(sim, { name: 'Bea', amount: 3 });
		const holds = async () =>
			(await read(app, '/tts/queue')).body.items.some(
				(t: { order_id: string }) => t.order_id === second.order_id
			);
		for (const end = Date.now() + 5000; !(await holds());) {
			expect(Date.now()).toBeLessThan(end);
			await new Promise((r) => setTimeout(r, 20));
		}
		expect(upstreamCalls(sim, 'GET', '/tts/queue')).toBe(queueReads);
	});

	it('sends a claim runner’s queue read with a fresh ticket to the upstream, and a plain read to the view', async () => {
		const { sim, app } = await served();
		const token = await fetch(app.origin + '/token', {
			method: 'POST',
			headers: { 'x-overlay-key': OVERLAY_KEY }
		});
		expect(token.status).toBe(200);
		const [ticket] = token.headers.get('x-read-ticket')!.split(',');
		const upstreamReads = () => upstreamCalls(sim, 'GET', '/tts/queue');
		const n = upstreamReads();

		const claim = await read(app, '/tts/queue', { 'x-read-ticket': ticket });
		expect(claim.status).toBe(200);
		expect(upstreamReads()).toBe(n + 1);
		// A replay of that very read (its ticket used) is a plain read: the view answers it.
		const replay = await read(app, '/tts/queue', { 'x-read-ticket': ticket });
		expect(replay.status).toBe(200);
		expect(replay.body).toEqual(claim.body);
		expect(upstreamReads()).toBe(n + 1);
	});

	it('sends upstream what the view does not keep: an older page of history, the overlays', async () => {
		const { sim, app } = await served();
		const history = upstreamCalls(sim, 'GET', '/tts/history');
		const older = await read(app, '/tts/history?before=ord_none');
		expect(older.status).toBe((await api(sim, 'GET', '/tts/history?before=ord_none')).status);
		expect(upstreamCalls(sim, 'GET', '/tts/history')).toBe(history + 2);
		const overlays = upstreamCalls(sim, 'GET', '/overlays');
		expect((await read(app, '/overlays')).status).toBe(200);
		expect(upstreamCalls(sim, 'GET', '/overlays')).toBe(overlays + 1);
	});

	it('shows the intake in /healthz', async () => {
		const { app } = await served();
		const health = await (await fetch(app.origin + '/healthz')).json();
		expect(health.intake).toMatchObject({ connected: true, connects: 1, lacking: [] });
		expect(health.intake.reads).toBeGreaterThanOrEqual(VIEW_PARTS.length);
	});
});

describe('a page’s read while the view is not sure', { timeout: 30_000 }, () => {
	/** The token endpoint whose streamer's intake the test drives, and the counters' upstream reads. */
	async function endpoint() {
		const sim = await start();
		const intake = new FakeIntake();
		const { app, calls } = tokenEndpoint(simUpstream(sim), { intakeOf: () => intake });
		const counterReads = () => calls.filter((c) => c === 'GET /counters').length;
		return { sim, intake, app, counterReads };
	}

	it('waits for the part’s read on its way and is answered from it, with no read of its own', async () => {
		const { sim, intake, app, counterReads } = await endpoint();
		intake.read('counters');
		const pages = Array.from({ length: 5 }, () => send(app, 'GET', '/api/counters'));
		await until(() => intake.waiting === 5);
		const upstream = (await api(sim, 'GET', '/counters')).body;
		intake.land('counters', upstream);
		for (const res of await Promise.all(pages)) {
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual(upstream);
		}
		expect(counterReads()).toBe(0);
	});

	it('goes upstream when the read on its way fails, and at once when none is on its way', async () => {
		const { intake, app, counterReads } = await endpoint();
		intake.read('counters');
		const page = send(app, 'GET', '/api/counters');
		await until(() => intake.waiting === 1);
		intake.fail('counters');
		expect((await page).status).toBe(200);
		expect(counterReads()).toBe(1);
		expect((await send(app, 'GET', '/api/counters')).status).toBe(200);
		expect(counterReads()).toBe(2);
	});
});

describe('a tip goal of an overlay the view does not hold', { timeout: 30_000 }, () => {
	it('has the goals read again once, however many pages ask, and is answered from the view after', async () => {
		const { sim, app } = await served();
		// An overlay made after the intake read the goals (the upstream announces no new overlay).
		const id = 'o_0badc0de';
		const base = sim.control.model.overlays.get(GOAL_OVERLAY)!;
		sim.control.model.overlays.set(id, {
			overlay: { ...base.overlay, id, name: 'Made later' },
			goal: { ...base.goal, title: 'Made later' }
		});
		const lists = upstreamCalls(sim, 'GET', '/overlays');
		const path = `/overlays/${id}/tip-goal`;

		const pages = await Promise.all(Array.from({ length: 10 }, () => read(app, path)));
		for (let i = 0; i < 5; i++) pages.push(await read(app, path));
		for (const page of pages) expect(page.status).toBe(200);
		// The intake's read of the goals: the list, and each overlay's goal once.
		expect(upstreamCalls(sim, 'GET', '/overlays')).toBe(lists + 1);
		expect(upstreamCalls(sim, 'GET', path)).toBe(1);
		const upstream = (await api(sim, 'GET', path)).body;
		for (const page of pages) expect(page.body).toEqual(upstream);
	});

	it('for an overlay that is not there, has the goals read once, and its reads go upstream', async () => {
		const { sim, app } = await served();
		const lists = upstreamCalls(sim, 'GET', '/overlays');
		const path = '/overlays/o_00000000/tip-goal';
		const upstream = await api(sim, 'GET', path);
		expect(upstream.status).toBe(404);
		for (let i = 0; i < 5; i++) {
			const page = await read(app, path);
			expect(page.status).toBe(404);
			expect(page.body).toEqual(upstream.body);
		}
		// Another such overlay this soon is not the cause of another read of the goals either.
		expect((await read(app, '/overlays/o_11111111/tip-goal')).status).toBe(404);
		expect(upstreamCalls(sim, 'GET', '/overlays')).toBe(lists + 1);
		expect(upstreamCalls(sim, 'GET', path)).toBe(1 + 5);
	});
});
