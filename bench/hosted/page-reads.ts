// What the hosted bench's TTS sources (sources.ts) read, as a real page's traffic shows it: each
// source's fetch is wrapped, and its last GET is kept as it went out (path, query and every header:
// X-Overlay-Key, Accept, and whatever else the page's client adds, such as a read ticket), for the
// read flood (flood-reader.ts) to replay. And the balancer's X-Forwarded-For, which the bench's
// balancer adds only when asked (`--xff`): by default every request reaches the instances from
// 127.0.0.1 with no such header, as from a balancer that does not add it.
import type { FetchLike } from '../../src/client/api.ts';

/** One GET as a page sent it: the path with its query, and its headers (lower-case names). */
export interface PageGet {
	path: string;
	headers: Record<string, string>;
}

export class PageReads {
	/** Each source's GETs in the order sent (the last few), by source. */
	private readonly gets = new Map<number, PageGet[]>();
	/** Every source's GETs by path (query left out), since the sources opened. */
	private readonly byPath: Record<string, number> = {};

	/** `fetch` as source `source` uses it: every GET it sends is recorded first. */
	wrap(source: number, fetch: FetchLike): FetchLike {
		return (input, init) => {
			if ((init?.method ?? 'GET').toUpperCase() === 'GET') {
				const headers = Object.fromEntries(new Headers(init?.headers).entries());
				const list = this.gets.get(source) ?? [];
				list.push({ path: String(input), headers });
				this.gets.set(source, list.slice(-KEPT));
				const path = String(input).split('?')[0];
				this.byPath[path] = (this.byPath[path] ?? 0) + 1;
			}
			return fetch(input, init);
		};
	}

	/** Source `source`'s last GET, or null before its first. */
	last(source: number): PageGet | null {
		return this.gets.get(source)?.at(-1) ?? null;
	}

	/** Every source's GETs by path (query left out), for the log: what the pages read. */
	paths(): Record<string, number> {
		return { ...this.byPath };
	}

	/** Forgets every source (their sources closed). */
	clear(): void {
		this.gets.clear();
		for (const path of Object.keys(this.byPath)) delete this.byPath[path];
	}
}

/** How many of a source's GETs are kept. */
const KEPT = 8;

/** `fetch` with X-Forwarded-For: `address` on every request, as a balancer that adds it would. */
export function forwardedFor(fetch: FetchLike, address: string): FetchLike {
	return (input, init) => {
		const headers = new Headers(init?.headers);
		headers.set('X-Forwarded-For', address);
		return fetch(input, { ...init, headers: Object.fromEntries(headers.entries()) });
	};
}

/** The client address a `--xff` balancer gives streamer `i`'s sources, and their flood. */
export const sourceAddress = (i: number) => `198.51.100.${(i % 250) + 1}`;
export const floodAddress = (i: number) => `203.0.113.${(i % 250) + 1}`;
