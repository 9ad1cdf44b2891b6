// The read flood of issue 41, in the load client's process (client.ts): something that re-reads a
// streamer's queue through the overlay key, `atOnce` identical GETs every `everyMs` (the issue's
// three every 1.5 s: a few sources reloading in a loop, a broken browser extension, anyone who saw
// the key on stream). It honours no 429 and no Retry-After, as such a reader would not.
import type { FetchLike } from '../../src/client/api.ts';

export interface FloodResult {
	reads: number;
	/** Answers by status (`unreachable`: no instance answered). */
	statuses: Record<string, number>;
}

export async function floodReads(
	keys: string[],
	fetch: FetchLike,
	o: { ms: number; everyMs: number; atOnce: number }
): Promise<FloodResult> {
	const result: FloodResult = { reads: 0, statuses: {} };
	const count = (status: string) => {
		result.statuses[status] = (result.statuses[status] ?? 0) + 1;
	};
	const end = Date.now() + o.ms;
	const pending: Promise<void>[] = [];
	await Promise.all(
		keys.map(async (key, i) => {
			await sleep((o.everyMs * i) / keys.length);
			for (let at = Date.now(); at < end; at += o.everyMs) {
				for (let n = 0; n < o.atOnce; n++) {
					result.reads += 1;
					pending.push(
						fetch('/api/tts/queue', { headers: { 'X-Overlay-Key': key } })
							.then(async (res) => {
								await res.arrayBuffer();
								count(String(res.status));
							})
							.catch(() => count('unreachable'))
					);
				}
				await sleep(at + o.everyMs - Date.now());
			}
		})
	);
	await Promise.all(pending);
	return result;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
