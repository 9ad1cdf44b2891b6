// A simulator and a realtime client per test, and the TTS calls the tts-claim tests
// (tts-claim.test.ts, tts-claim.queue.test.ts) make.
import {
	CreateTipBody,
	TtsFinishBody,
	TtsQueueBody,
	TtsStartBody,
	type QueueTip
} from '../../src/contract/index.ts';
import { expectBody } from '../fixtures/contract-checks.ts';
import { api, simAndRealtimePerTest, type RealtimeClient, type Sim } from '../fixtures/sim.ts';

export let sim: Sim;

export let rt: RealtimeClient;

simAndRealtimePerTest((s, r) => {
	sim = s;
	rt = r;
});

export async function tip(message = 'hello stream'): Promise<QueueTip> {
	const res = await api(sim, 'POST', '/tips', {
		body: { name: 'Ada', amount: 5, message, paid: true }
	});
	return expectBody(res, 201, CreateTipBody).tip;
}

export async function queue() {
	return expectBody(await api(sim, 'GET', '/tts/queue'), 200, TtsQueueBody);
}

export const ids = (items: { order_id: string }[]) => items.map((i) => i.order_id);

export const start = (orderId: string, key?: string) =>
	api(sim, 'POST', `/tts/${orderId}/start`, { key });

export const finish = (orderId: string) => api(sim, 'POST', `/tts/${orderId}/finish`);

export const release = (orderId: string) => api(sim, 'POST', `/tts/${orderId}/release`);

export async function play(orderId: string): Promise<void> {
	expectBody(await start(orderId), 200, TtsStartBody);
	expectBody(await finish(orderId), 200, TtsFinishBody);
}
