// A simulator and a realtime client per test, and the media calls the media-claim tests
// (media-claim.test.ts, media-claim.queue.test.ts) make.
import {
	MediaFinishBody,
	MediaHistoryBody,
	MediaQueueBody,
	MediaQueuedBody,
	MediaStartBody,
	MediaStatusBody,
	type QueueMediaItem
} from '../../src/contract/index.ts';
import { expectBody } from '../fixtures/contract-checks.ts';
import { api, simAndRealtimePerTest, type RealtimeClient, type Sim } from '../fixtures/sim.ts';

export let sim: Sim;

export let rt: RealtimeClient;

simAndRealtimePerTest((s, r) => {
	sim = s;
	rt = r;
});

export const demoVideo = (file = 'countdown') => `${sim.origin}/demo/${file}.webm`;

/** Queues a video directly (POST /media/queue, `media:control`). */
export async function video(file = 'countdown', startTime?: number): Promise<QueueMediaItem> {
	const body: Record<string, unknown> = { url: demoVideo(file) };
	if (startTime !== undefined) body.start_time = startTime;
	return expectBody(await api(sim, 'POST', '/media/queue', { body }), 201, MediaQueuedBody).media;
}

export async function queue() {
	return expectBody(await api(sim, 'GET', '/media/queue'), 200, MediaQueueBody);
}

export async function status() {
	return expectBody(await api(sim, 'GET', '/media/status'), 200, MediaStatusBody);
}

export async function history(query = '') {
	return expectBody(await api(sim, 'GET', `/media/history${query}`), 200, MediaHistoryBody);
}

export const ids = (items: { order_id: string }[]) => items.map((i) => i.order_id);

export const start = (orderId: string, key?: string) =>
	api(sim, 'POST', `/media/${orderId}/start`, { key });

export const finish = (orderId: string) => api(sim, 'POST', `/media/${orderId}/finish`);

export const release = (orderId: string, key?: string) =>
	api(sim, 'POST', `/media/${orderId}/release`, { key });

export async function play(orderId: string): Promise<void> {
	expectBody(await start(orderId), 200, MediaStartBody);
	expectBody(await finish(orderId), 200, MediaFinishBody);
}
