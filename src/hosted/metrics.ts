// What one hosted instance counts, for GET /metrics (the Prometheus text format, version 0.0.4) and
// /healthz: its upstream requests by outcome (429s among them) and the last RateLimit-* headers
// seen, its token refreshes by outcome, how long POST /token takes to mint a handoff token, and
// the reads it refused (429) per streamer. Counts since the instance started; only the refused
// reads name a streamer, by its id (never a key or a name).
import { readRateLimitHeaders } from '../core/rate-budget.ts';
import type { KeyRefusal } from '../server/caller.ts';
import type { Fetch } from '../server/upstream.ts';
import type { UpstreamBudgetSnapshot } from '../server/upstream-budget.ts';
import type { PoolStats } from './db.ts';
import type { IntakesStatus } from './intakes.ts';
import type { LockStats, LockTotals } from './locks.ts';
import type { WebhookOutcome } from './webhook-route.ts';

/** How a refresh of one instance ended: sent and rotated, sent and not rotated, the connection
 * ended (refused, or a dead holder's mark found), or another instance's fresh result used. */
export type RefreshOutcome = 'rotated' | 'not_rotated' | 'ended' | 'adopted';

/** Seconds: from a cached credential (about a millisecond) to a refresh under a lock. */
const MINT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What an instance has in hand at the moment of a scrape. */
export interface InstanceNow {
	/** The upstream budgets and what they hold back (UpstreamBudget.budgetSnapshot). */
	budget?: UpstreamBudgetSnapshot;
	/** Reads answered by an identical read's upstream call, since the start (read-flights.ts). */
	readsShared?: number;
	/** The database's pools (db.ts poolStats; null on PGlite). */
	pool?: Record<'queries' | 'locks' | 'control', PoolStats> | null;
	locks?: LockStats & LockTotals;
	/** The streamers' intakes this instance holds (intakes.ts). */
	intakes?: IntakesStatus;
}

export interface RateLimitSeen {
	limit: number;
	remaining: number;
	/** When the upstream said the window resets. */
	resetAt: string;
}

export class HostedMetrics {
	private readonly requests = new Map<string, number>();
	private readonly refreshes = new Map<RefreshOutcome, number>();
	/** Time the upstream requests took, by kind (seconds, sum and count). */
	private readonly took = new Map<string, { sum: number; count: number }>();
	private readonly mintBuckets = MINT_BUCKETS.map(() => 0);
	private mintCount = 0;
	private mintSum = 0;
	/** Reads refused 429 by the instance's read allowance, by streamer and allowance. */
	private readonly readsRefused = new Map<string, number>();
	/** Requests refused by a key check, by answer (routes/key-guard.ts). */
	private readonly keysRefused = new Map<KeyRefusal, number>();
	/** Webhook deliveries received, by outcome (webhook-route.ts). */
	private readonly webhooks = new Map<WebhookOutcome, number>();
	rateLimit: RateLimitSeen | null = null;

	constructor(private readonly now: () => number = Date.now) {}

	/** `fetch`, counting each request to the upstream by outcome (`kind`: api or oauth). */
	counting(kind: 'api' | 'oauth', fetch: Fetch): Fetch {
		return async (input, init) => {
			let res: Response;
			const started = performance.now();
			try {
				res = await fetch(input, init);
			} catch (err) {
				this.count(kind, 'unreachable');
				throw err;
			} finally {
				const t = this.took.get(kind) ?? { sum: 0, count: 0 };
				this.took.set(kind, {
					sum: t.sum + (performance.now() - started) / 1000,
					count: t.count + 1
				});
			}
			this.count(kind, res.status === 429 ? '429' : `${Math.floor(res.status / 100)}xx`);
			const seen = readRateLimitHeaders(res.headers);
			if (seen)
				this.rateLimit = {
					limit: seen.limit,
					remaining: seen.remaining,
					resetAt: new Date(this.now() + seen.resetS * 1000).toISOString()
				};
			return res;
		};
	}

	refreshed(outcome: RefreshOutcome): void {
		this.refreshes.set(outcome, (this.refreshes.get(outcome) ?? 0) + 1);
	}

	/** A read of `streamer` refused 429 for its streamer's or its address's allowance. */
	readRefused(streamer: string, by: 'key' | 'address'): void {
		const key = `${streamer},${by}`;
		this.readsRefused.set(key, (this.readsRefused.get(key) ?? 0) + 1);
	}

	/** A request refused for its key: wrong (401), one of too many (429), or another site's (403). */
	keyRefused(answer: KeyRefusal): void {
		this.keysRefused.set(answer, (this.keysRefused.get(answer) ?? 0) + 1);
	}

	/** A webhook delivery: verified (accepted), refused 401, or answered 503 without the database. */
	webhook(outcome: WebhookOutcome): void {
		this.webhooks.set(outcome, (this.webhooks.get(outcome) ?? 0) + 1);
	}

	/** A POST /token answered after `seconds`. */
	minted(seconds: number): void {
		this.mintCount += 1;
		this.mintSum += seconds;
		MINT_BUCKETS.forEach((le, i) => {
			if (seconds <= le) this.mintBuckets[i] += 1;
		});
	}

	/** Upstream requests that answered 429 since the start. */
	get rateLimited(): number {
		let n = 0;
		for (const [key, v] of this.requests) if (key.endsWith(',429')) n += v;
		return n;
	}

	/**
	 * The exposition; `streamers`: by status in the database; `active`: clients in this instance;
	 * `now`: the database pool and the refresh locks at this moment.
	 */
	render(streamers: Record<string, number>, active: number, now: InstanceNow = {}): string {
		const x = new Exposition();
		this.upstreamFamilies(x);
		this.streamerFamilies(x, streamers, active);
		if (now.budget) budgetFamilies(x, now.budget);
		this.readFamilies(x, now.readsShared);
		if (now.pool) poolFamilies(x, now.pool);
		if (now.locks) lockFamilies(x, now.locks);
		if (now.intakes) intakeFamilies(x, now.intakes);
		this.mintFamily(x);
		return x.text();
	}

	/** The upstream requests: by outcome, their time, the 429s and the last RateLimit seen. */
	private upstreamFamilies(x: Exposition): void {
		x.pairs('tip_upstream_requests_total', 'Requests to the upstream, by outcome.', this.requests, [
			'kind',
			'outcome'
		]);
		x.summary(
			'tip_upstream_request_seconds',
			'Time to an upstream answer, by kind.',
			[...this.took].sort().map(([kind, t]) => [`{kind="${kind}"}`, t.sum, t.count])
		);
		x.family('tip_upstream_rate_limited_total', 'counter', 'Upstream answers 429.');
		x.out.push(`tip_upstream_rate_limited_total ${this.rateLimited}`);
		if (this.rateLimit) {
			x.family('tip_upstream_ratelimit_remaining', 'gauge', 'RateLimit-Remaining last seen.');
			x.out.push(`tip_upstream_ratelimit_remaining ${this.rateLimit.remaining}`);
		}
	}

	/** The streamers: their token refreshes, how many by status, how many this instance serves. */
	private streamerFamilies(x: Exposition, streamers: Record<string, number>, active: number) {
		x.family('tip_oauth_refreshes_total', 'counter', 'Token refreshes, by outcome.');
		for (const outcome of ['rotated', 'not_rotated', 'ended', 'adopted'] as const)
			x.out.push(
				`tip_oauth_refreshes_total{outcome="${outcome}"} ${this.refreshes.get(outcome) ?? 0}`
			);
		x.family('tip_streamers', 'gauge', 'Streamers in the database, by status.');
		for (const status of ['connected', 'reconnect', 'disconnected'])
			x.out.push(`tip_streamers{status="${status}"} ${streamers[status] ?? 0}`);
		x.family(
			'tip_streamers_active',
			'gauge',
			'Streamers this instance has served since it started.'
		);
		x.out.push(`tip_streamers_active ${active}`);
	}

	/** The reads refused here per streamer, and those an identical read's call answered. */
	private readFamilies(x: Exposition, shared: number | undefined): void {
		x.pairs(
			'tip_reads_refused_total',
			'Reads answered 429 by the instance, by streamer and by allowance (key or address).',
			this.readsRefused,
			['streamer', 'by']
		);
		x.family(
			'tip_keys_refused_total',
			'counter',
			'Requests refused by a key check: wrong_key (401), too_many_attempts (429, wrong keys only), cross_site (403).'
		);
		for (const answer of ['wrong_key', 'too_many_attempts', 'cross_site'] as const)
			x.out.push(`tip_keys_refused_total{answer="${answer}"} ${this.keysRefused.get(answer) ?? 0}`);
		x.family('tip_webhook_deliveries_total', 'counter', 'Webhook deliveries, by outcome.');
		for (const outcome of ['accepted', 'refused', 'unavailable'] as const)
			x.out.push(
				`tip_webhook_deliveries_total{outcome="${outcome}"} ${this.webhooks.get(outcome) ?? 0}`
			);
		if (shared === undefined) return;
		x.family(
			'tip_upstream_reads_shared_total',
			'counter',
			'Reads answered by the upstream call of an identical read (calls spared).'
		);
		x.out.push(`tip_upstream_reads_shared_total ${shared}`);
	}

	/** The histogram of the time POST /token takes. */
	private mintFamily(x: Exposition): void {
		x.family('tip_token_mint_seconds', 'histogram', 'Time to answer POST /token.');
		MINT_BUCKETS.forEach((le, i) =>
			x.out.push(`tip_token_mint_seconds_bucket{le="${le}"} ${this.mintBuckets[i]}`)
		);
		x.out.push(
			`tip_token_mint_seconds_bucket{le="+Inf"} ${this.mintCount}`,
			`tip_token_mint_seconds_sum ${this.mintSum}`,
			`tip_token_mint_seconds_count ${this.mintCount}`
		);
	}

	private count(kind: string, outcome: string): void {
		const key = `${kind},${outcome}`;
		this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
	}
}

/** The lines of one exposition, written family by family. */
class Exposition {
	readonly out: string[] = [];

	/** A family's HELP and TYPE lines; its samples follow in `out`. */
	family(name: string, type: string, help: string): void {
		this.out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
	}

	/** A family of one sample without labels. */
	one(name: string, type: string, help: string, value: number): void {
		this.family(name, type, help);
		this.out.push(`${name} ${value}`);
	}

	/** A counter family with two labels: `counts` holds each pair of values as `first,second`. */
	pairs(
		name: string,
		help: string,
		counts: ReadonlyMap<string, number>,
		[first, second]: readonly [string, string]
	): void {
		this.family(name, 'counter', help);
		for (const [key, v] of [...counts].sort()) {
			const [a, b] = key.split(',');
			this.out.push(`${name}{${first}="${a}",${second}="${b}"} ${v}`);
		}
	}

	/** A summary family: a sum and a count for each set of labels (`{kind="..."}` or none). */
	summary(name: string, help: string, rows: [string, number, number][]): void {
		this.family(name, 'summary', help);
		for (const [labels, sum, count] of rows)
			this.out.push(`${name}_sum${labels} ${sum}`, `${name}_count${labels} ${count}`);
	}

	text(): string {
		return this.out.join('\n') + '\n';
	}
}

/** The streamers' intakes: the leases held here, their sockets connected, the takeovers. */
function intakeFamilies(x: Exposition, i: IntakesStatus): void {
	x.family('tip_intakes', 'gauge', "Streamers' intakes this instance holds, by state.");
	x.out.push(
		`tip_intakes{state="held"} ${i.held}`,
		`tip_intakes{state="connected"} ${i.connected}`
	);
	x.one(
		'tip_intake_takeovers_total',
		'counter',
		'Leases taken here that another holder had let expire or given up.',
		i.takeovers
	);
}

/** The calls the instance's upstream budget holds back or refuses. */
function budgetFamilies(x: Exposition, b: UpstreamBudgetSnapshot): void {
	x.family(
		'tip_upstream_held_calls',
		'gauge',
		'Calls held back now by the instance until a budget resets, by priority.'
	);
	x.out.push(
		`tip_upstream_held_calls{priority="claim"} ${b.queued.claims}`,
		`tip_upstream_held_calls{priority="read"} ${b.queued.reads}`
	);
	x.one('tip_upstream_held_calls_total', 'counter', 'Calls held back until a reset.', b.held);
	x.one(
		'tip_upstream_held_claims_total',
		'counter',
		'Claims (start, finish, release, controls) held back until a reset.',
		b.heldClaims
	);
	x.one(
		'tip_upstream_refused_here_total',
		'counter',
		'Calls answered 429 by the instance itself: its budget would have held them too long.',
		b.refusedHere
	);
	x.one(
		'tip_upstream_budget_saturated',
		'gauge',
		'1 while reads are held back for claims.',
		b.saturated ? 1 : 0
	);
	addressFamilies(x, b.address);
}

/** The calling address's budget, deployment-wide, and who spent its reads. */
function addressFamilies(x: Exposition, a: UpstreamBudgetSnapshot['address']): void {
	x.one(
		'tip_upstream_address_limit',
		'gauge',
		'Calls a window the upstream allows per address.',
		a.limit
	);
	x.family(
		'tip_upstream_address_calls',
		'gauge',
		'Calls of the last window from this address, by every instance and streamer, by priority.'
	);
	x.out.push(
		`tip_upstream_address_calls{priority="claim"} ${a.claims}`,
		`tip_upstream_address_calls{priority="read"} ${a.reads}`
	);
	x.one(
		'tip_upstream_address_read_ceiling',
		'gauge',
		'Reads of every streamer together that the window allows now (the claims keep the rest).',
		a.readCeiling
	);
	x.one(
		'tip_upstream_address_instances',
		'gauge',
		'Instances that called from this address.',
		a.instances
	);
	x.family(
		'tip_upstream_address_reads_by_streamer',
		'gauge',
		'Reads of the last window by the streamers who read most (at most five).'
	);
	for (const r of a.topReaders)
		x.out.push(`tip_upstream_address_reads_by_streamer{streamer="${r.streamer}"} ${r.reads}`);
	x.one(
		'tip_upstream_address_held_reads_total',
		'counter',
		'Reads this instance held for the address budget.',
		a.heldReads
	);
}

/** The database's connections, by pool. */
function poolFamilies(x: Exposition, pools: NonNullable<InstanceNow['pool']>): void {
	x.family('tip_db_pool_connections', 'gauge', 'Database connections, by pool and state.');
	for (const [pool, p] of Object.entries(pools))
		x.out.push(
			`tip_db_pool_connections{pool="${pool}",state="idle"} ${p.idle}`,
			`tip_db_pool_connections{pool="${pool}",state="busy"} ${p.total - p.idle}`
		);
	x.family('tip_db_pool_waiting', 'gauge', 'Callers waiting for a pooled connection.');
	for (const [pool, p] of Object.entries(pools))
		x.out.push(`tip_db_pool_waiting{pool="${pool}"} ${p.waiting}`);
}

/** The token refreshes at their lock, now and since the start. */
function lockFamilies(x: Exposition, locks: LockStats & LockTotals): void {
	x.family('tip_refresh_locks', 'gauge', 'Token refreshes at their lock now, by state.');
	for (const state of ['connecting', 'waiting', 'holding'] as const)
		x.out.push(`tip_refresh_locks{state="${state}"} ${locks[state]}`);
	x.family(
		'tip_refresh_lock_contended_total',
		'counter',
		'Refreshes that found the lock held by another and waited for its result.'
	);
	x.out.push(`tip_refresh_lock_contended_total ${locks.contended}`);
	x.summary(
		'tip_refresh_lock_held_seconds',
		'How long refreshes held their lock (the refresh, or the read of a stored result).',
		[['', locks.heldSeconds, locks.heldCount]]
	);
	x.summary(
		'tip_refresh_lock_wait_seconds',
		'From asking for a refresh lock to holding it, or to using the holder’s stored result.',
		[['', locks.waitSeconds, locks.waitCount]]
	);
}
