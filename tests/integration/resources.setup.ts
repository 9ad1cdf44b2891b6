// A simulator and a realtime client per test, and the helpers the resource tests
// (resources.test.ts, resources.tipping.test.ts) share.
import { CreateTipBody, TipGoalBody, type QueueTip } from '../../src/contract/index.ts';
import { expectBody } from '../fixtures/contract-checks.ts';
import { api, simAndRealtimePerTest, type RealtimeClient, type Sim } from '../fixtures/sim.ts';

export let sim: Sim;

export let rt: RealtimeClient;

simAndRealtimePerTest((s, r) => {
	sim = s;
	rt = r;
});

export const MAIN = 'o_1a2b3c4d';

export const CHAT = 'o_5e6f7a8b';

export async function createTip(body: Record<string, unknown>): Promise<QueueTip> {
	const res = await api(sim, 'POST', '/tips', { body: { name: 'Ada', amount: 5, ...body } });
	return expectBody(res, 201, CreateTipBody).tip;
}

export async function goal(overlayId = MAIN) {
	return expectBody(await api(sim, 'GET', `/overlays/${overlayId}/tip-goal`), 200, TipGoalBody)
		.tip_goal;
}

export async function patchGoal(body: Record<string, unknown>, overlayId = MAIN) {
	return api(sim, 'PATCH', `/overlays/${overlayId}/tip-goal`, { body });
}

export const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
