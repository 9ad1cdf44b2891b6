// The Activity across hosted instances on one PostgreSQL (docs/activity.md): the instance holding
// the streamer's intake is killed outright (SIGKILL) during twenty tips; the other takes the intake
// over, recovers what it missed from the upstream's queue and history, and the dock lists all
// twenty once, whichever instance it asks.
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
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
import { settles } from './activity.setup.ts';

useDeployments();

const health = async (origin: string) =>
	(await (await fetch(`${origin}/healthz`)).json()) as {
		intakes: { held: number; connected: number; takeovers: number };
	};

async function tip(sim: Sim, name: string): Promise<string> {
	const res = await api(sim, 'POST', '/tips', { body: { name, amount: 3, paid: true } });
	expect(res.status).toBe(201);
	return res.body.tip.order_id as string;
}

async function listed(origin: string, key: string): Promise<any[]> {
	const res = await fetch(`${origin}/control/activity?kind=tip&limit=100`, {
		headers: { 'x-control-key': key }
	});
	expect(res.status).toBe(200);
	return ((await res.json()) as { entries: any[] }).entries;
}

describe.skipIf(missing)('the Activity when the holder is killed', { timeout: 120_000 }, () => {
	it('records all twenty tips once, the ones sent while nobody held the intake too', async () => {
		const { sim, clientId } = await deployment(0);
		const holder = await holdingProcess(sim, clientId);
		try {
			const other = await addInstance(sim, clientId);
			const { id } = await db!.selectFrom('streamers').select('id').executeTakeFirstOrThrow();
			const key = (await new HostedStore(db!, new SecretBox(SECRET)).controlKey(id))!;

			const sent: string[] = [];
			for (let i = 0; i < 7; i++) sent.push(await tip(sim, `Early${i}`));
			await settles(async () => expect(await listed(other.origin, key)).toHaveLength(7), 15_000);
			holder.child.kill('SIGKILL');
			expect((await holder.exited).signal).toBe('SIGKILL');
			// While nobody holds the intake: some wait, two are played through.
			for (let i = 0; i < 8; i++) sent.push(await tip(sim, `Gap${i}`));
			for (const played of sent.slice(7, 9)) {
				expect((await api(sim, 'POST', `/tts/${played}/start`)).status).toBe(200);
				expect((await api(sim, 'POST', `/tts/${played}/finish`)).status).toBe(200);
			}
			await eventually(async () => (await health(other.origin)).intakes.connected === 1, 30_000);
			for (let i = 0; i < 5; i++) sent.push(await tip(sim, `Late${i}`));

			await settles(async () => {
				const tips = await listed(other.origin, key);
				expect(tips.map((t) => t.order_id).sort()).toEqual([...sent].sort());
			}, 20_000);
			const tips = await listed(other.origin, key);
			expect(tips).toHaveLength(20);
			const by = new Map(tips.map((t) => [t.order_id, t]));
			for (const played of sent.slice(7, 9))
				expect(by.get(played)).toMatchObject({ outcome: 'read', via: 'recovered' });
			expect(by.get(sent[10])).toMatchObject({ outcome: 'queued', via: 'recovered' });
			expect(by.get(sent[0]).via).toBe('realtime');
			expect(by.get(sent[19]).via).toBe('realtime');
		} finally {
			holder.child.kill('SIGKILL');
		}
	});
});
