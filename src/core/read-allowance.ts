// How many reads a reader may make through the token endpoint: token buckets, one per overlay key
// (in hosted mode, per streamer) and one per client address of a key. Pure: the caller passes the
// time. A read refused by either bucket costs neither: a flood from one address spends only its
// address's allowance, and the key's other readers (the OBS sources) keep theirs.
//
// A bucket, not a window (src/core/window-limit.ts): a page that connects spends a burst and then
// reads steadily at once; under a window of the same burst it would be refused until the burst's
// reads left the window (two minutes for an address).
import { LRUCache } from 'lru-cache';
import { retryAfterS } from './window-limit.ts';

export interface Allowance {
	/** Reads at once, as a page's connect or a scene of several sources reloading asks for. */
	burst: number;
	/** Reads a second, sustained. */
	perS: number;
}

export interface ReadLimits {
	key: Allowance;
	address: Allowance;
}

/**
 * A full overlay reads about ten things as it connects (the currency, the overlay, both queues,
 * the counters, the goal, the lists) and a page re-reads on a reconnect or an event it cannot
 * apply, so six overlays loading at once stay within an address's burst, and a page's steady
 * reads (a list once a tip, the preview after each burst of events) within its rate. The worst case
 * flood, three reads of the queue every 1.5 s (2 a second), gets a quarter of that through per
 * instance; the key's own half of the upstream's per-authorization 120 a minute is its ceiling.
 */
export const DEFAULT_READ_LIMITS: ReadLimits = {
	key: { burst: 120, perS: 1 },
	address: { burst: 60, perS: 0.5 }
};

/** No allowance at all: for the benches and tests that measure what lies behind it. */
export const UNLIMITED_READS: ReadLimits = {
	key: { burst: 1e9, perS: 1e9 },
	address: { burst: 1e9, perS: 1e9 }
};

interface Bucket {
	tokens: number;
	at: number;
}

export type ReadVerdict = { ok: true } | { ok: false; by: 'key' | 'address'; retryAfterS: number };

/** Readers remembered at most, per kind; past it the one seen least recently is forgotten. */
const READERS_KEPT = 100_000;

export class ReadAllowance {
	private readonly keys = new LRUCache<string, Bucket>({ max: READERS_KEPT });
	private readonly addresses = new LRUCache<string, Bucket>({ max: READERS_KEPT });

	constructor(readonly limits: ReadLimits = DEFAULT_READ_LIMITS) {}

	/** One read of `key` from `address` at `now` (ms): allowed (and counted), or refused. */
	take(key: string, address: string, now: number): ReadVerdict {
		const byKey = bucket(this.keys, key, this.limits.key, now);
		const byAddress = bucket(this.addresses, `${key}\n${address}`, this.limits.address, now);
		if (byAddress.tokens < 1) return refuse('address', byAddress, this.limits.address);
		if (byKey.tokens < 1) return refuse('key', byKey, this.limits.key);
		byKey.tokens -= 1;
		byAddress.tokens -= 1;
		return { ok: true };
	}
}

/** Refused until the bucket holds a whole read again. */
function refuse(by: 'key' | 'address', b: Bucket, a: Allowance): ReadVerdict {
	return { ok: false, by, retryAfterS: retryAfterS(b.at + ((1 - b.tokens) / a.perS) * 1000, b.at) };
}

/** The bucket refilled to `now`; full for a reader not seen (or forgotten) before. */
function bucket(buckets: LRUCache<string, Bucket>, id: string, a: Allowance, now: number): Bucket {
	let b = buckets.get(id);
	if (!b) buckets.set(id, (b = { tokens: a.burst, at: now }));
	b.tokens = Math.min(a.burst, b.tokens + (Math.max(0, now - b.at) / 1000) * a.perS);
	b.at = now;
	return b;
}
