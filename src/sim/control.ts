// The control handle (in-process) and the small control HTTP API under /_sim: demo actions and fault
// injection. The simulator is a loopback demo service; this API does not exist upstream.
import { Hono } from 'hono';
import { z } from 'zod';
import { describeIssues, Scope, type Actor } from '../contract/index.ts';
import type { ApiKey } from './auth.ts';
import { chatRoutes } from './chat-control.ts';
import type { SimChat } from './chat.ts';
import type { SimCommands } from './commands.ts';
import type { SimCore } from './core.ts';
import { SimError } from './errors.ts';
import type { TipInput } from './model/model.ts';
import type { RealtimeHub } from './realtime.ts';
import type { DemoTraffic } from './traffic.ts';

const RIVAL: Actor = { type: 'api_key', id: 'key_rival', name: 'Rival overlay (simulated)' };

/** What tests, the demo and the preview use to steer the simulator. */
export class SimControl {
	/** Set by startSimulator once the hub and traffic exist. */
	hub?: RealtimeHub;
	traffic?: DemoTraffic;
	/** Claims held by holdRivalClaim, as `queue:orderId`, with the log position of their start. */
	private readonly rivalClaims = new Map<string, number>();

	constructor(readonly core: SimCore) {}

	get model() {
		return this.core.model;
	}
	get log() {
		return this.core.log;
	}
	get faults() {
		return this.core.faults;
	}
	/** The OAuth server (oauth.ts): register apps, shorten access tokens, revoke, inspect grants. */
	get oauth() {
		return this.core.oauth;
	}
	/** Webhook endpoints, their deliveries, and where an https origin is delivered locally. */
	get webhooks() {
		return this.core.webhooks;
	}

	addKey(opts: { scopes?: readonly Scope[]; name?: string; value?: string } = {}): ApiKey {
		return this.core.credentials.addKey(opts);
	}

	revokeKey(value: string): void {
		const key = this.core.credentials.revokeKey(value);
		if (key) this.hub?.closeForKey(key.id);
	}

	/**
	 * A viewer's tip (a checkout on the tip page) for the first account, or for the named one (the
	 * hosted demo has several). Refused with 409 `tipping_closed` while tipping is closed.
	 */
	createTip(input: TipInput, tenantId?: string): ReturnType<SimCore['model']['checkout']> {
		return this.tenant(tenantId).checkout(input);
	}

	/** An account's model by tenant id (absent: the first); unknown ids are refused. */
	tenant(tenantId?: string): SimCore['model'] {
		if (tenantId === undefined) return this.core.model;
		const model = this.core.models.get(tenantId);
		if (!model) throw new SimError(400, 'bad_request', `no account ${tenantId} in this simulator`);
		return model;
	}

	/** Every socket dies without a close frame; reconnects are refused for `refuseMs`. */
	dropSockets(refuseMs = 0): number {
		return this.hub?.dropAll(refuseMs) ?? 0;
	}

	/**
	 * The sockets connected now stop receiving anything (pings included) for `ms` without being
	 * closed, like a half-open TCP connection; clients must detect it by their heartbeat watchdog.
	 */
	silenceSockets(ms: number): number {
		return this.hub?.silence(ms) ?? 0;
	}

	/** Writes `text` as one raw frame to every authenticated socket (malformed-frame tests). */
	sendRaw(text: string): number {
		return this.hub?.sendRaw(text) ?? 0;
	}

	failHttp(opts: { status: 429 | 502; count?: number; forMs?: number; match?: string }): void {
		this.core.faults.failHttp(opts);
	}

	duplicateEvents(count: number): void {
		this.core.faults.events.duplicate = count;
	}

	reorderEvents(count: number): void {
		this.core.faults.events.reorder = count;
	}

	delayEvents(count: number, ms: number): void {
		this.core.faults.events.delay = count;
		this.core.faults.events.delayMs = ms;
	}

	delayAudio(ms: number): void {
		this.core.faults.audioDelayMs = ms;
	}

	breakNextAudio(count = 1, mode: 'missing' | 'corrupt' = 'missing'): void {
		this.core.faults.breakNextAudio = count;
		this.core.faults.breakMode = mode;
	}

	breakAudio(orderId: string, mode: 'missing' | 'corrupt' = 'missing'): void {
		this.core.faults.breakAudio(orderId, mode);
	}

	/**
	 * A video URL on the simulator (`{origin}/demo/...` or its path) that fails: `missing` answers
	 * 404, `corrupt` answers 200 with bytes that are not a video. The query counts, so one of many
	 * requests of the same file (`/demo/bars.webm?n=3`) can be broken alone. Returns the path.
	 */
	breakVideo(url: string, mode: 'missing' | 'corrupt' = 'missing'): string {
		const u = new URL(url, 'http://sim.invalid');
		const path = u.pathname + u.search;
		if (!path.startsWith('/demo/'))
			throw new SimError(400, 'bad_request', 'only videos under /demo/ can be broken');
		this.core.faults.brokenVideo.set(path, mode);
		return path;
	}

	/**
	 * Another consumer claims the head of a queue (or `orderId`) and holds it; after `forMs` it
	 * releases the claim, as a crashed rival would never do. Returns the claimed order id.
	 */
	holdRivalClaim(queue: 'tts' | 'media', opts: { orderId?: string; forMs?: number } = {}): string {
		const m = this.core.model;
		const q = queue === 'tts' ? m.tts : m.media;
		const orderId = opts.orderId ?? q.items[0]?.order_id;
		if (!orderId) throw new SimError(404, 'not_found', `the ${queue} queue is empty`);
		m.start(queue, orderId, RIVAL);
		const claim = `${queue}:${orderId}`;
		this.rivalClaims.set(claim, this.core.log.lastSeq);
		// Only a claim the rival still holds is released: after clearFaults a consumer may own it.
		if (opts.forMs !== undefined)
			this.core.later(opts.forMs, () => {
				if (this.rivalClaims.has(claim)) this.releaseRivalClaim(queue, orderId);
			});
		return orderId;
	}

	releaseRivalClaim(queue: 'tts' | 'media', orderId: string): void {
		const claim = `${queue}:${orderId}`;
		const since = this.rivalClaims.get(claim);
		this.rivalClaims.delete(claim);
		// A consumer took the claim over since (released it, started it again): it is not the
		// rival's any more, and releasing it would pull it from under a healthy consumer.
		if (since !== undefined && !this.rivalStillHolds(queue, orderId, since)) return;
		const m = this.core.model;
		m.release(queue, orderId, RIVAL);
	}

	private rivalStillHolds(queue: 'tts' | 'media', orderId: string, since: number): boolean {
		const q = queue === 'tts' ? this.core.model.tts : this.core.model.media;
		if (q.current !== orderId) return false;
		const ended = new RegExp(`^queue\\.${queue}\\.(released|finished|skipped|removed)$`);
		return !this.core.log
			.since(since)
			.some(
				(e) =>
					e.kind === 'event' &&
					(e.type === 'queue.tts.cleared' || (e.order_id === orderId && ended.test(e.type)))
			);
	}

	/** Back to normal: every fault is lifted, including claims a rival still holds. */
	clearFaults(): void {
		this.core.faults.clear();
		this.hub?.silence(0);
		this.core.faults.audioDelayMs = this.core.options.audioDelayMs ?? 300;
		for (const claim of [...this.rivalClaims.keys()]) {
			const [queue, orderId] = claim.split(/:(.*)/s) as ['tts' | 'media', string];
			this.releaseRivalClaim(queue, orderId);
		}
		for (const chat of this.core.chats.values()) chat.clearSwitches();
	}

	/**
	 * An account's chat bot (chat.ts; absent: the first account): its `switches` (bot off, channels,
	 * not yet connected, gateway down), `log()` of what it said, newest first, and `send`.
	 */
	chat(tenantId?: string): SimChat {
		return this.core.chatOf(this.tenant(tenantId).tenant.id);
	}

	/** An account's custom commands (commands.ts; absent: the first account): `hear` a chat line. */
	commands(tenantId?: string): SimCommands {
		return this.core.commandsOf(this.tenant(tenantId).tenant.id);
	}

	resetRateLimits(): void {
		this.core.keyLimiter.reset();
		this.core.ipLimiter.reset();
	}
}

const TipBody = z.object({
	name: z.string().min(1).max(100).default('Test viewer'),
	amount: z.number().min(0).nullable().default(5),
	message: z.string().max(1000).nullable().default('This is a test tip from the simulator.'),
	paid: z.boolean().default(true),
	media_url: z.url().optional(),
	/** The account to tip (the hosted demo's streamers); absent: the first. */
	tenant: z.string().max(100).optional()
});
const HttpFaultBody = z.object({
	status: z.union([z.literal(429), z.literal(502)]),
	count: z.number().int().positive().optional(),
	for_ms: z.number().int().positive().optional(),
	match: z.string().optional()
});
const EventFaultBody = z.object({
	duplicate: z.number().int().min(0).optional(),
	reorder: z.number().int().min(0).optional(),
	delay: z.number().int().min(0).optional(),
	delay_ms: z.number().int().min(0).optional()
});
const AudioFaultBody = z.object({
	delay_ms: z.number().int().min(0).optional(),
	break_next: z.number().int().min(0).optional(),
	order_id: z.string().optional(),
	mode: z.enum(['missing', 'corrupt']).optional()
});
const VideoFaultBody = z.object({
	url: z.string().min(1),
	mode: z.enum(['missing', 'corrupt']).optional()
});
const RivalBody = z.object({
	queue: z.enum(['tts', 'media']),
	order_id: z.string().optional(),
	for_ms: z.number().int().positive().optional()
});
const TrafficBody = z.object({ per_minute: z.number().positive().max(600) });

export function controlApp(control: SimControl): Hono {
	const app = new Hono();
	demoRoutes(app, control);
	faultRoutes(app, control);
	chatRoutes(app, control);
	app.onError((err, c) =>
		err instanceof SimError ? c.json(err.body(), err.status) : c.json({ error: String(err) }, 500)
	);
	return app;
}

/** A request's JSON body read with `schema`; a body that does not fit is a 400 (SimError). */
async function parse<S extends z.ZodType>(schema: S, req: Request): Promise<z.infer<S>> {
	const raw = await req.json().catch(() => ({}));
	const r = schema.safeParse(raw);
	if (!r.success) throw new SimError(400, 'bad_request', describeIssues(r.error));
	return r.data;
}

/**
 * The demo's actions: read the log, send a test tip (a viewer's, so refused while tipping is
 * closed), start and stop the demo traffic.
 */
function demoRoutes(app: Hono, control: SimControl): void {
	const { core } = control;
	app.get('/log', (c) => c.json({ entries: core.log.since(Number(c.req.query('since') ?? 0)) }));
	app.post('/tips', async (c) => {
		const b = await parse(TipBody, c.req.raw);
		const tip = control.createTip(
			{
				name: b.name,
				amount: b.amount,
				message: b.message,
				paid: b.paid,
				source: 'test',
				media: b.media_url
					? { url: b.media_url, ...core.videoInfo(b.media_url), requested_via: 'tip' }
					: undefined
			},
			b.tenant
		);
		return c.json({ tip }, 201);
	});
	app.post('/traffic', async (c) => {
		const b = await parse(TrafficBody, c.req.raw);
		control.traffic?.start(b.per_minute);
		return c.json({ success: true, per_minute: b.per_minute });
	});
	app.delete('/traffic', (c) => {
		control.traffic?.stop();
		return c.json({ success: true });
	});
}

/** Fault injection: failing HTTP calls, event and socket faults, broken media, a rival's claim. */
function faultRoutes(app: Hono, control: SimControl): void {
	app.post('/faults/http', async (c) => {
		const b = await parse(HttpFaultBody, c.req.raw);
		control.failHttp({ status: b.status, count: b.count, forMs: b.for_ms, match: b.match });
		return c.json({ success: true });
	});
	app.post('/faults/events', async (c) => {
		const b = await parse(EventFaultBody, c.req.raw);
		if (b.duplicate !== undefined) control.duplicateEvents(b.duplicate);
		if (b.reorder !== undefined) control.reorderEvents(b.reorder);
		if (b.delay !== undefined) control.delayEvents(b.delay, b.delay_ms ?? 1000);
		return c.json({ success: true });
	});
	app.post('/faults/drop', async (c) => {
		const b = await parse(z.object({ refuse_ms: z.number().int().min(0).optional() }), c.req.raw);
		return c.json({ success: true, dropped: control.dropSockets(b.refuse_ms ?? 0) });
	});
	app.post('/faults/silence', async (c) => {
		const b = await parse(z.object({ ms: z.number().int().min(0).max(600_000) }), c.req.raw);
		return c.json({ success: true, sockets: control.silenceSockets(b.ms) });
	});
	app.post('/faults/raw', async (c) => {
		const b = await parse(z.object({ text: z.string().max(64 * 1024) }), c.req.raw);
		return c.json({ success: true, sockets: control.sendRaw(b.text) });
	});
	app.post('/faults/audio', async (c) => {
		const b = await parse(AudioFaultBody, c.req.raw);
		if (b.delay_ms !== undefined) control.delayAudio(b.delay_ms);
		if (b.break_next !== undefined) control.breakNextAudio(b.break_next, b.mode);
		if (b.order_id !== undefined) control.breakAudio(b.order_id, b.mode);
		return c.json({ success: true });
	});
	app.post('/faults/video', async (c) => {
		const b = await parse(VideoFaultBody, c.req.raw);
		return c.json({ success: true, path: control.breakVideo(b.url, b.mode) });
	});
	app.post('/faults/rival', async (c) => {
		const b = await parse(RivalBody, c.req.raw);
		const orderId = control.holdRivalClaim(b.queue, { orderId: b.order_id, forMs: b.for_ms });
		return c.json({ success: true, order_id: orderId });
	});
	app.post('/faults/webhooks', async (c) => {
		const b = await parse(z.object({ duplicate: z.number().int().min(0).max(1000) }), c.req.raw);
		control.faults.duplicateDeliveries = b.duplicate;
		return c.json({ success: true });
	});
	app.post('/faults/clear', (c) => {
		control.clearFaults();
		return c.json({ success: true });
	});
}
