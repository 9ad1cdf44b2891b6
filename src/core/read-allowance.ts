// How many reads a reader may make through the token endpoint: token buckets, one per
// overlay key (in hosted mode, per streamer) and one per client address of a key. Pure: the caller
// passes the time. A read refused by either bucket costs neither: a flood from one address spends
// only its address's allowance, and the key's other readers (the OBS sources) keep theirs.

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

/** Buckets idle long enough to be full again are forgotten once there are this many. */
const SWEEP_AT = 10_000;

/** Buckets by reader, and the count at which the full ones are next forgotten. */
interface Buckets {
	map: Map<string, Bucket>;
	sweepAt: number;
}

export class ReadAllowance {
	private readonly keys: Buckets = { map: new Map(), sweepAt: SWEEP_AT };
	private readonly addresses: Buckets = { map: new Map(), sweepAt: SWEEP_AT };

	constructor(readonly limits: ReadLimits = DEFAULT_READ_LIMITS) {}

	/** One read of `key` from `address` at `now` (ms): allowed (and counted), or refused. */
	take(key: string, address: string, now: number): ReadVerdict {
		const byKey = this.bucket(this.keys, key, this.limits.key, now);
		const byAddress = this.bucket(this.addresses, `${key}\n${address}`, this.limits.address, now);
		if (byAddress.tokens < 1) return this.refuse('address', byAddress, this.limits.address);
		if (byKey.tokens < 1) return this.refuse('key', byKey, this.limits.key);
		byKey.tokens -= 1;
		byAddress.tokens -= 1;
		return { ok: true };
	}

	private refuse(by: 'key' | 'address', b: Bucket, a: Allowance): ReadVerdict {
		// Whole seconds until a read is allowed again (Retry-After has no fractions).
		return { ok: false, by, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / a.perS)) };
	}

	/** The bucket refilled to `now`; made full for a reader not seen before. */
	private bucket(buckets: Buckets, id: string, a: Allowance, now: number): Bucket {
		const { map } = buckets;
		let b = map.get(id);
		if (!b) {
			if (map.size >= buckets.sweepAt) {
				sweep(map, a, now);
				// Many readers busy at once: the next sweep waits until there are twice as many.
				buckets.sweepAt = Math.max(SWEEP_AT, map.size * 2);
			}
			b = { tokens: a.burst, at: now };
			map.set(id, b);
		}
		b.tokens = Math.min(a.burst, b.tokens + (Math.max(0, now - b.at) / 1000) * a.perS);
		b.at = now;
		return b;
	}
}

/** Forgets the buckets that would be full by now: a reader coming back finds a full one anyway. */
function sweep(map: Map<string, Bucket>, a: Allowance, now: number): void {
	for (const [id, b] of map)
		if (b.tokens + ((now - b.at) / 1000) * a.perS >= a.burst) map.delete(id);
}
