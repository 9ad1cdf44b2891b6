// The hosted bench's read flood, in the load client's process (client.ts): for every flooded
// source, its own last GET (page-reads.ts: path, query and every header as the page sent it, taken
// again at each burst) sent `atOnce` times at once every `everyMs`: a few copies of the page
// reloading in a loop, a broken browser extension replaying what it saw, anyone who copied a
// request off the stream. It honours no 429 and no Retry-After, as such a reader would not.
import type { FetchLike } from '../../src/client/api.ts';
import type { PageGet } from './page-reads.ts';

export interface FloodResult {
	reads: number;
	/** Answers by status (`unreachable`: no instance answered). */
	statuses: Record<string, number>;
	/** Answers by the replayed GET's path (query left out) and status: `GET /settings 200`. */
	byPath: Record<string, number>;
	/** Bursts skipped because the source had sent no GET yet. */
	nothingToReplay: number;
	/** The flooded sources' own GETs by path since they opened (client.ts adds them). */
	pageGets?: Record<string, number>;
}

/** A flooded source: its last GET when asked, and (`--xff`) the fetch its reader goes through. */
export interface FloodedSource {
	last(): PageGet | null;
	fetch: FetchLike;
}

export async function floodReads(
	sources: FloodedSource[],
	o: { ms: number; everyMs: number; atOnce: number }
): Promise<FloodResult> {
	const result: FloodResult = { reads: 0, statuses: {}, byPath: {}, nothingToReplay: 0 };
	const count = (get: PageGet, status: string) => {
		result.statuses[status] = (result.statuses[status] ?? 0) + 1;
		const kind = `GET ${get.path.split('?')[0]} ${status}`;
		result.byPath[kind] = (result.byPath[kind] ?? 0) + 1;
	};
	const end = Date.now() + o.ms;
	const pending: Promise<void>[] = [];
	await Promise.all(
		sources.map(async (source, i) => {
			await sleep((o.everyMs * i) / sources.length);
			for (let at = Date.now(); at < end; at += o.everyMs) {
				const get = source.last();
				if (!get) result.nothingToReplay += 1;
				for (let n = 0; get && n < o.atOnce; n++) {
					result.reads += 1;
					pending.push(
						source
							.fetch(get.path, { headers: get.headers })
							.then(async (res) => {
								await res.arrayBuffer();
								count(get, String(res.status));
							})
							.catch(() => count(get, 'unreachable'))
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
