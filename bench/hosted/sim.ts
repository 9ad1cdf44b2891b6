// The hosted bench's upstream, as its own process: the simulator with N streamers (tn_bench_0 ...),
// the bench's OAuth app, and the figures the bench reads from it over IPC (requests, 429s, OAuth
// refreshes, rotated-out refresh tokens presented, revoked authorizations, tips played, upstream
// reads, realtime sockets by credential).
import { startSimulator } from '../../src/sim/index.ts';
import { tenantOf } from './processes.ts';

export interface SimSettings {
	streamers: number;
	perIpPerMinute: number;
	perKeyPerMinute: number;
	rateWindowMs?: number;
	redirectUris: string[];
}

export interface SimReady {
	origin: string;
	baseUrl: string;
	wsUrl: string;
	oauthUrl: string;
	clientId: string;
}

export interface SimStats {
	requests: number;
	/** 429s answered, by kind of call. */
	limited: { claims: number; others: number };
	refreshes: number;
	reuseDetected: number;
	revoked: number;
	/** Per tenant: order ids played (finished), each as often as it was finished. */
	played: Record<string, string[]>;
	/** Tips still in the queues (not played yet). */
	pending: number;
	/** API calls answered with GET (any status): the upstream reads. */
	gets: number;
	/** The realtime sockets by credential: `apiKey` (an intake's access token) or `token` (a page's). */
	realtime: Record<'apiKey' | 'token', RealtimeCount>;
}

/** Authenticated realtime sockets of one kind of credential. */
export interface RealtimeCount {
	/** Connected now, and the streamers they are of (two of one streamer count once). */
	sockets: number;
	streamers: number;
	/** Authenticated since the simulator started. */
	opened: number;
}

/** What the upstream saw since the last `mark` (the capacity ramp's steps). */
export interface StepStats {
	/** API calls answered (any status), and by kind (`POST /tts/{id}/start`). */
	requests: number;
	byKind: Record<string, number>;
	/** The most calls one address made in one rate window (the per-IP budget's peak). */
	peakPerIpWindow: number;
	/** Calls per address in its fullest rate window, refused ones included (above the limit: 429s). */
	sentPerIpWindow: Record<string, number>;
	/** 429s answered, oldest first: which call, which budget (no key known yet: the IP's). */
	limited: { t: number; call: string; budget: 'ip' | 'authorization' }[];
	tipsCreated: number;
	/** Of those, played (finished) so far, and their time from queued to finished (ms). */
	tipsPlayed: number;
	tipMs: number[];
	/** Of those, started so far: the time from created to the start the upstream accepted (ms). */
	startMs: number[];
}

export type SimMessage =
	| { type: 'stats' }
	| { type: 'access-ttl'; seconds: number; spread?: boolean }
	| { type: 'tips'; tenants: string[] }
	/** The documented limits per `windowMs` (scaled with the capacity ramp's clock). */
	| { type: 'limits'; perIp: number; perKey: number; windowMs: number }
	/** A tip every `periodMs` for each of the first `streamers` streamers (each at its own phase). */
	| { type: 'schedule'; streamers: number; periodMs: number }
	| { type: 'mark' }
	| { type: 'step' };

const CLAIM_PATH = /^\/(tts|media)\/[^/]+\/(start|finish|release)$/;

const settings = JSON.parse(process.env.BENCH_SIM ?? '{}') as SimSettings;
const sim = await startSimulator({
	quiet: true,
	tenants: Array.from({ length: settings.streamers }, (_, i) => ({
		id: tenantOf(i),
		name: `Bench streamer ${i}`,
		currency: 'USD',
		currency_symbol: '$',
		// Each account's three overlays, with ids of their own.
		overlayIds: [0, 1, 2].map((k) => `o_${(i * 3 + k).toString(16).padStart(8, '0')}`) as [
			string,
			string,
			string
		]
	})),
	perIpPerMinute: settings.perIpPerMinute,
	perKeyPerMinute: settings.perKeyPerMinute,
	rateWindowMs: settings.rateWindowMs,
	audioDelayMs: 20,
	audioClipMs: 200
});
const { app } = sim.control.oauth.registerApp({
	secret: null,
	redirectUris: settings.redirectUris
});

const log = sim.control.log;
const core = sim.control.core;

// Counted as they happen: the log keeps only its last 20,000 entries, fewer than a storm of 1,000
// streamers writes (its refreshes, reuses and revocations were undercounted from the log).
let requestCount = 0;
let getCount = 0;
let step: StepStats = emptyStep();
const created = new Map<string, { tenant: string; at: number; startedAt?: number }>();
function emptyStep(): StepStats {
	return {
		requests: 0,
		byKind: {},
		peakPerIpWindow: 0,
		sentPerIpWindow: {},
		limited: [],
		tipsCreated: 0,
		tipsPlayed: 0,
		tipMs: [],
		startMs: []
	};
}
/** OAuth grants, refreshes, reuses and revocations by action, and 429s: counted the same way. */
const oauthCount: Record<string, number> = {};
const limitedCount = { claims: 0, others: 0 };
const logOAuth = log.oauth.bind(log);
log.oauth = (e) => {
	logOAuth(e);
	oauthCount[e.action] = (oauthCount[e.action] ?? 0) + 1;
};
const logRequest = log.request.bind(log);
log.request = (e) => {
	logRequest(e);
	requestCount += 1;
	if (e.method === 'GET') getCount += 1;
	if (e.status === 429) limitedCount[CLAIM_PATH.test(e.path) ? 'claims' : 'others'] += 1;
	step.requests += 1;
	const kind = `${e.method} ${e.path.replace(/^\/(tts|media)\/[^/]+\/(start|finish|release)$/, '/$1/{id}/$2')}`;
	step.byKind[kind] = (step.byKind[kind] ?? 0) + 1;
	if (e.status === 429)
		step.limited.push({ t: Date.now(), call: kind, budget: e.key ? 'authorization' : 'ip' });
	const started = e.status === 200 && /^\/tts\/([^/]+)\/start$/.exec(e.path);
	const tip = started ? created.get(decodeURIComponent(started[1])) : undefined;
	if (tip && tip.startedAt === undefined) tip.startedAt = Date.now();
};
const ipHit = core.ipLimiter.hit.bind(core.ipLimiter);
/** Calls per address in its current rate window: the limiter's count goes on past the limit. */
const sentInWindow = new Map<string, number>();
core.ipLimiter.hit = (bucket) => {
	const rate = ipHit(bucket);
	step.peakPerIpWindow = Math.max(step.peakPerIpWindow, rate.limit - rate.remaining);
	// The window's first call leaves limit - 1 (the limiter opens a window with a count of 1).
	const first = !rate.limited && rate.remaining === rate.limit - 1;
	const sent = first ? 1 : (sentInWindow.get(bucket) ?? 0) + 1;
	sentInWindow.set(bucket, sent);
	step.sentPerIpWindow[bucket] = Math.max(step.sentPerIpWindow[bucket] ?? 0, sent);
	return rate;
};

function tip(tenant: string): void {
	const t = sim.control.createTip(
		{ name: 'Bench viewer', amount: 5, message: 'tip', paid: true },
		tenant
	);
	step.tipsCreated += 1;
	created.set(t.order_id, { tenant, at: Date.now() });
}

/** The tips of this step played so far, and how long each took from queued to finished. */
function stepStats(): StepStats {
	const result = { ...step, tipMs: [] as number[], tipsPlayed: 0, startMs: [] as number[] };
	for (const c of created.values())
		if (c.startedAt !== undefined) result.startMs.push(c.startedAt - c.at);
	const tenants = new Set([...created.values()].map((c) => c.tenant));
	for (const tenant of tenants)
		for (const h of sim.control.tenant(tenant).tts.history) {
			if (!created.has(h.order_id)) continue;
			result.tipsPlayed += 1;
			result.tipMs.push(Date.parse(h.played_at) - Date.parse(h.queued_at));
		}
	return result;
}

/** Due times per scheduled streamer; one timer ticks through them. */
let schedule: { due: number[]; periodMs: number; timer: ReturnType<typeof setInterval> | null } = {
	due: [],
	periodMs: 0,
	timer: null
};
function setSchedule(streamers: number, periodMs: number): void {
	const now = Date.now();
	// Streamers already scheduled keep their phase; new ones get a random one.
	const due = Array.from(
		{ length: streamers },
		(_, i) => schedule.due[i] ?? now + Math.random() * periodMs
	);
	if (schedule.timer) clearInterval(schedule.timer);
	schedule = { due, periodMs, timer: null };
	if (!streamers) return;
	schedule.timer = setInterval(() => {
		const t = Date.now();
		schedule.due.forEach((at, i) => {
			if (at > t) return;
			tip(tenantOf(i));
			schedule.due[i] = at + periodMs;
		});
	}, 50);
}

function stats(): SimStats {
	const played: Record<string, string[]> = {};
	let pending = 0;
	for (let i = 0; i < settings.streamers; i++) {
		const model = sim.control.tenant(tenantOf(i));
		played[tenantOf(i)] = model.tts.history.map((t) => t.order_id);
		pending += model.tts.items.length;
	}
	return {
		requests: requestCount,
		limited: { ...limitedCount },
		refreshes: oauthCount.refresh_token ?? 0,
		reuseDetected: oauthCount.reuse_detected ?? 0,
		revoked: oauthCount.revoked ?? 0,
		played,
		pending,
		gets: getCount,
		realtime: { apiKey: realtimeCount('apiKey'), token: realtimeCount('token') }
	};
}

function realtimeCount(kind: 'apiKey' | 'token'): RealtimeCount {
	const hub = sim.control.hub!;
	const byStreamer = hub.authenticatedBy(kind);
	let sockets = 0;
	for (const n of byStreamer.values()) sockets += n;
	return { sockets, streamers: byStreamer.size, opened: hub.opened[kind] };
}

process.on('message', (m: SimMessage) => {
	if (m.type === 'stats') process.send!({ type: 'stats', stats: stats() });
	else if (m.type === 'access-ttl') {
		sim.control.oauth.accessTtlS = m.seconds;
		sim.control.oauth.tokens.expireAccessWithin(m.seconds, m.spread);
		process.send!({ type: 'done' });
	} else if (m.type === 'tips') {
		for (const tenant of m.tenants) tip(tenant);
		process.send!({ type: 'done' });
	} else if (m.type === 'limits') {
		core.ipLimiter.configure(m.perIp, m.windowMs);
		core.keyLimiter.configure(m.perKey, m.windowMs);
		process.send!({ type: 'done' });
	} else if (m.type === 'schedule') {
		setSchedule(m.streamers, m.periodMs);
		process.send!({ type: 'done' });
	} else if (m.type === 'mark') {
		step = emptyStep();
		created.clear();
		process.send!({ type: 'done' });
	} else if (m.type === 'step') process.send!({ type: 'done', result: stepStats() });
});
process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
process.send!({
	type: 'ready',
	ready: {
		origin: sim.origin,
		baseUrl: sim.baseUrl,
		wsUrl: sim.wsUrl,
		oauthUrl: sim.oauthUrl,
		clientId: app.id
	} satisfies SimReady
});
