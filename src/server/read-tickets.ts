// Read tickets: what lets a page's queue read that it needs in order to claim go first. A ticket is
// handed out only in answers a page gets for doing something a GET cannot do (a successful
// POST /token, any call of /api other than a GET), and in the answer to a read that presented one,
// so whatever replays a page's GETs, headers and all, never holds a fresh one: the one it replays
// was used by the page already. A queue read with a fresh ticket of its streamer is not counted
// against the read allowance and is sent upstream as a claim would be (routes/read-limit.ts,
// routes/proxy.ts); anything else about a ticket makes the read a plain read, never an error.
//
// A ticket is `<expiry, unix seconds, base36>.<16 random bytes>.<MAC>` (base64url), the MAC an
// HMAC-SHA256 over the streamer it was issued for, the expiry and the random part, truncated to
// 16 bytes. It is used once per process: a used one is remembered (the last MAX_USED used; an
// older one has expired by then, and is refused for that). Hosted instances share the key (derived from
// SECRET_KEY, src/hosted/crypto.ts) but not what was used, so a replayed ticket is honoured at most
// once by each instance; the per-streamer bucket of ticketed reads (PRIORITY_READS) bounds that too.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ReadAllowance, type Allowance } from '../core/read-allowance.ts';

/**
 * How long a ticket is good for: a page that played nothing for a while still holds one when its
 * push channel reconnects (an instance restarted) and it reads its queue again.
 */
export const TICKET_TTL_S = 900;
/** Used tickets remembered at most; past it the oldest is forgotten (it may be honoured again). */
const MAX_USED = 100_000;
/**
 * Ticketed reads a streamer may make at priority: a scene of sources reconnecting at once, then one
 * every 5 s. Over it a ticketed read is a plain read: tickets harvested by abuse buy no more.
 */
const PRIORITY_READS: Allowance = { burst: 20, perS: 0.2 };
const MAC_BYTES = 16;
const TICKET = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

export interface ReadTicketsOptions {
	now?: () => number;
	/** Used tickets remembered at most (tests). */
	maxUsed?: number;
	/** Ticketed reads at priority per streamer (tests). */
	priorityReads?: Allowance;
}

export class ReadTickets {
	private readonly now: () => number;
	/** Used tickets: their random part. */
	private readonly used: LRUCache<string, true>;
	private readonly priority: ReadAllowance;
	private readonly priorityLimits: Allowance;

	/** `key`: the MAC key; absent, a random one, so only this process accepts its tickets. */
	constructor(
		private readonly key: Uint8Array = randomBytes(32),
		o: ReadTicketsOptions = {}
	) {
		this.now = o.now ?? Date.now;
		this.used = new LRUCache({ max: o.maxUsed ?? MAX_USED });
		this.priorityLimits = o.priorityReads ?? PRIORITY_READS;
		this.priority = new ReadAllowance({ key: this.priorityLimits, address: this.priorityLimits });
	}

	/** A fresh ticket for a page of `scope` (the streamer). */
	issue(scope: string): string {
		const expiry = (Math.floor(this.now() / 1000) + TICKET_TTL_S).toString(36);
		const random = randomBytes(16).toString('base64url');
		return `${expiry}.${random}.${this.mac(scope, expiry, random)}`;
	}

	/**
	 * Whether `ticket` is a fresh one of `scope`: made here (or by an instance with the same key),
	 * not expired, not used before in this process. Once true, it is used.
	 */
	redeem(scope: string, ticket: string | undefined): boolean {
		const m = ticket ? TICKET.exec(ticket) : null;
		if (!m) return false;
		const [, expiry, random, mac] = m;
		const nowS = this.now() / 1000;
		const expiresS = parseInt(expiry, 36);
		if (!(expiresS > nowS) || expiresS > nowS + TICKET_TTL_S + 1) return false;
		const expected = Buffer.from(this.mac(scope, expiry, random), 'base64url');
		const given = Buffer.from(mac, 'base64url');
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
		if (this.used.has(random)) return false;
		this.used.set(random, true);
		return true;
	}

	/** One read at priority for `scope`, if its bucket has one left (counted); else false. */
	takePriority(scope: string): boolean {
		return this.priority.take(scope, '', this.now()).ok;
	}

	private mac(scope: string, expiry: string, random: string): string {
		return createHmac('sha256', this.key)
			.update(`read ticket\0${scope}\0${expiry}\0${random}`)
			.digest()
			.subarray(0, MAC_BYTES)
			.toString('base64url');
	}
}
