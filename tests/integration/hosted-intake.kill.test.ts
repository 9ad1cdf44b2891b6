// The instance holding a streamer's intake is killed outright (SIGKILL: no drain, its lease left to
// expire): the other instance takes the intake over (src/hosted/intakes.ts), and what it answers
// its pages afterwards, the tips sent while nobody held it among them, equals a fresh read of the
// upstream: each tip once, each supporter's total and the tip goal counted once.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import {
	addInstance,
	db,
	deployment,
	holdingProcess,
	missing,
	SECRET,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { api, eventually, type Sim } from '../fixtures/sim.ts';

useDeployments();

const GOAL_OVERLAY = 'o_1a2b3c4d';

const health = async (origin: string) =>
	(await (await fetch(`${origin}/healthz`)).json()) as {
		intakes: { held: number; connected: number; takeovers: number };
	};

async function read(app: HostedApp, key: string, path: string) {
	const res = await fetch(`${app.origin}/api${path}`, { headers: { 'x-overlay-key': key } });
	return { status: res.status, body: (await res.json()) as any };
}

async function tip(sim: Sim, name: string, amount: number): Promise<string> {
	const res = await api(sim, 'POST', '/tips', { body: { name, amount, paid: true } });
	expect(res.status).toBe(201);
	return res.body.tip.order_id as string;
}

describe.skipIf(missing)('a holder killed', { timeout: 120_000 }, () => {
	it('the other instance takes the intake over; its view has every tip once, each total counted once', async () => {
		const { sim, clientId } = await deployment(0);
		const holder = await holdingProcess(sim, clientId);
		try {
			const other = await addInstance(sim, clientId);
			const { id } = await db!.selectFrom('streamers').select('id').executeTakeFirstOrThrow();
			const key = (await new HostedStore(db!, new SecretBox(SECRET)).overlayKey(id))!;

			const sent = [await tip(sim, 'Ada', 7), await tip(sim, 'Bea', 3)];
			await eventually(async () => {
				const q = await read(other, key, '/tts/queue');
				return (
					q.status === 200 && sent.every((o) => q.body.items.some((i: any) => i.order_id === o))
				);
			});
			expect((await health(other.origin)).intakes.held).toBe(0);

			holder.child.kill('SIGKILL');
			expect((await holder.exited).signal).toBe('SIGKILL');
			// Tips while nobody holds the intake (its lease not yet expired), Ada again among them.
			for (const [name, amount] of [
				['Ada', 5],
				['Cy', 11],
				['Dee', 2]
			] as const)
				sent.push(await tip(sim, name, amount));
			await eventually(async () => (await health(other.origin)).intakes.connected === 1, 30_000);
			expect((await health(other.origin)).intakes.takeovers).toBe(1);
			const lease = await sql<{ n: string }>`select count(*) as n from intake_leases
				where expires_at > now()`.execute(db!);
			expect(Number(lease.rows[0].n)).toBe(1);
			sent.push(await tip(sim, 'Eve', 4));

			await eventually(async () => {
				const q = await read(other, key, '/tts/queue');
				return (
					q.status === 200 && sent.every((o) => q.body.items.some((i: any) => i.order_id === o))
				);
			});
			const queue = (await read(other, key, '/tts/queue')).body.items.map((i: any) => i.order_id);
			expect(queue.filter((o: string) => sent.includes(o))).toEqual(sent);
			// Totals as the upstream counts them: no tip added twice across the takeover.
			await eventually(async () => {
				const board = await read(other, key, '/leaderboard?limit=10');
				const goal = await read(other, key, `/overlays/${GOAL_OVERLAY}/tip-goal`);
				const freshBoard = await api(sim, 'GET', '/leaderboard?limit=10');
				const freshGoal = await api(sim, 'GET', `/overlays/${GOAL_OVERLAY}/tip-goal`);
				return (
					JSON.stringify(board.body) === JSON.stringify(freshBoard.body) &&
					JSON.stringify(goal.body) === JSON.stringify(freshGoal.body)
				);
			});
			// And they come from the taken-over view, not from reads of the upstream of their own.
			const freshBoard = await api(sim, 'GET', '/leaderboard?limit=10');
			const upstreamReads = () =>
				sim.control.log
					.requests()
					.filter((e) => e.method === 'GET' && /^\/(leaderboard|overlays|tts)/.test(e.path)).length;
			const before = upstreamReads();
			const board = await read(other, key, '/leaderboard?limit=10');
			expect(board.body).toEqual(freshBoard.body);
			expect(board.body.supporters.find((s: any) => s.name === 'Ada')).toMatchObject({
				total: 12,
				tips: 2
			});
			expect((await read(other, key, `/overlays/${GOAL_OVERLAY}/tip-goal`)).status).toBe(200);
			expect((await read(other, key, '/tts/queue')).status).toBe(200);
			expect(upstreamReads()).toBe(before);
		} finally {
			holder.child.kill('SIGKILL');
		}
	});
});
