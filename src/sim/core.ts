// Wires the simulator's parts together: model, credentials, limits, faults, audio, log and the
// realtime hub. The HTTP app and the control handle both work on one SimCore (which knows
// neither: they are built on it in index.ts).
import type { EventEnvelope, QueueTip } from '../contract/index.ts';
import { AudioStore } from './audio-store.ts';
import { SimChat } from './chat.ts';
import { SimCommands } from './commands.ts';
import { Credentials, DEMO_API_KEY, RateLimiter, type ApiKey } from './auth.ts';
import { demoVideos } from './demo-videos.ts';
import { Faults } from './faults.ts';
import { SimLog } from './log.ts';
import { SimModel } from './model/model.ts';
import { DEMO_TENANTS, type DemoTenant } from './model/overlays.ts';
import { OAuthServer } from './oauth.ts';
import { SimWebhooks } from './webhooks.ts';

export interface SimOptions {
	/** The key with every scope that the simulator accepts (README: the demo key). */
	apiKey?: string;
	perKeyPerMinute?: number;
	perIpPerMinute?: number;
	rateWindowMs?: number;
	/** Time before a tip's audio is ready, on top of real rendering. */
	audioDelayMs?: number;
	/**
	 * Every tip's audio is a short tone this long instead of its spoken message (benches: thousands
	 * of tips, and gaps measured between clips of known length). Absent: speech or a message tone.
	 */
	audioClipMs?: number;
	heartbeatS?: number;
	authTimeoutMs?: number;
	/** Lifetime of a realtime handoff token; docs/upstream.md says 60 s, tests shorten it. */
	handoffTtlS?: number;
	/** Print nothing (tests). */
	quiet?: boolean;
	/**
	 * Webhook deliveries to these https origins go to the local origin given instead (tests and
	 * the demo on loopback; docs/simulator.md, webhooks). More can be added: `webhooks.targets`.
	 */
	webhookTargets?: Record<string, string>;
	/** The first wait before a webhook delivery is tried again (doubling); default 250 ms. */
	webhookRetryMs?: number;
	/**
	 * The accounts this service holds (the hosted demo: several streamers, each with their own
	 * queues and events; the consent page asks which one signs in). Absent: the demo streamer.
	 */
	tenants?: readonly DemoTenant[];
}

export class SimCore {
	readonly credentials: Credentials;
	readonly demoKey: ApiKey;
	readonly keyLimiter: RateLimiter;
	readonly ipLimiter: RateLimiter;
	readonly faults: Faults;
	readonly log = new SimLog();
	readonly audio: AudioStore;
	/** The first account's model: API keys and the control API act on it. */
	readonly model: SimModel;
	/** Every account's model by tenant id (the first is `model`). */
	readonly models = new Map<string, SimModel>();
	/** The OAuth 2.0 authorization server (oauth.ts); its access tokens pass the bearer check. */
	readonly oauth: OAuthServer;
	/** Each account's chat bot by tenant id (its budget is the streamer's, shared by every key). */
	readonly chats = new Map<string, SimChat>();
	/** Each account's webhook endpoints, and the deliveries of every event to them. */
	readonly webhooks: SimWebhooks;
	/** Each account's custom commands by tenant id (commands.ts). */
	readonly commands = new Map<string, SimCommands>();
	/** Set once the server listens: `http://127.0.0.1:port`. */
	origin = '';
	/** The realtime hub registers itself here; an event goes to its own account's sockets. */
	broadcast: (event: EventEnvelope, tenantId: string) => void = () => {};
	private readonly timers = new Set<ReturnType<typeof setTimeout>>();
	private closed = false;

	constructor(readonly options: SimOptions = {}) {
		this.credentials = new Credentials(Date.now, options.handoffTtlS);
		this.demoKey = this.credentials.addKey({
			value: options.apiKey ?? DEMO_API_KEY,
			name: 'Demo key'
		});
		this.oauth = new OAuthServer(this.log);
		this.credentials.oauth = this.oauth;
		this.keyLimiter = new RateLimiter(options.perKeyPerMinute ?? 120, options.rateWindowMs);
		this.ipLimiter = new RateLimiter(options.perIpPerMinute ?? 240, options.rateWindowMs);
		this.faults = new Faults(options.audioDelayMs ?? 300);
		this.audio = new AudioStore(64, options.audioClipMs);
		this.webhooks = new SimWebhooks(
			{
				later: (ms, fn) => this.later(ms, fn),
				takeDuplicateDelivery: () => this.faults.takeDuplicateDelivery()
			},
			options.webhookRetryMs
		);
		for (const [from, to] of Object.entries(options.webhookTargets ?? {}))
			this.webhooks.targets.set(new URL(from).origin, to.replace(/\/$/, ''));
		const tenants = options.tenants ?? DEMO_TENANTS.slice(0, 1);
		for (const tenant of tenants) {
			const model: SimModel = new SimModel({
				tenant,
				audioUrl: (orderId) => `${this.origin}/audio/${orderId}.wav`,
				sink: (event) => {
					const data = event.data as {
						order_id?: unknown;
						tip?: { order_id?: unknown };
						media?: { order_id?: unknown };
					};
					const orderId = data.order_id ?? data.tip?.order_id ?? data.media?.order_id;
					this.log.event({
						id: event.id,
						type: event.type,
						...(typeof orderId === 'string' ? { order_id: orderId } : {}),
						...(tenants.length > 1 ? { tenant: tenant.id } : {})
					});
					this.broadcast(event, tenant.id);
					// The same envelope and id, by webhook too (docs/upstream.md, webhooks).
					this.webhooks.deliver(event, tenant.id);
				},
				requestAudio: (tip) => this.renderAudio(model, tip)
			});
			this.models.set(tenant.id, model);
		}
		this.model = this.models.values().next().value!;
	}

	/** An account's chat bot (chat.ts), made on first use. */
	chatOf(tenantId: string): SimChat {
		let chat = this.chats.get(tenantId);
		if (!chat) this.chats.set(tenantId, (chat = new SimChat()));
		return chat;
	}

	/** An account's custom commands (commands.ts), made on first use. */
	commandsOf(tenantId: string): SimCommands {
		let commands = this.commands.get(tenantId);
		if (!commands) {
			const model = this.models.get(tenantId) ?? this.model;
			this.commands.set(tenantId, (commands = new SimCommands(model, this.chatOf(tenantId))));
		}
		return commands;
	}

	/** The account a credential belongs to (keys without one: the first). */
	modelOf(key: { tenantId?: string }): SimModel {
		return (key.tenantId && this.models.get(key.tenantId)) || this.model;
	}

	/** This core as the given account sees it (the API's handlers read `model`). */
	asTenant(key: { tenantId?: string }): SimCore {
		const model = this.modelOf(key);
		return model === this.model ? this : Object.create(this, { model: { value: model } });
	}

	/** Render the tip's audio, then (after the configured delay) mark it ready. */
	private renderAudio(model: SimModel, tip: QueueTip): void {
		const started = Date.now();
		const text = model.spokenText(tip);
		void this.audio.render(tip.order_id, text).then(
			() => {
				const wait = Math.max(0, this.faults.audioDelayMs - (Date.now() - started));
				this.later(wait, () => {
					this.faults.takeAudioBreak(tip.order_id);
					model.audioReady(tip.order_id);
				});
			},
			(err: unknown) => {
				if (!this.options.quiet) console.error('[sim] audio rendering failed', err);
			}
		);
	}

	/** Title, thumbnail and duration for the simulator's own demo videos. */
	videoInfo(url: string): { title?: string; thumbnail?: string; duration?: number } {
		const video = demoVideos.find((v) => url === `${this.origin}${v.file}`);
		if (!video) return {};
		return {
			title: video.title,
			thumbnail: `${this.origin}${video.thumbnail}`,
			duration: video.duration
		};
	}

	/** A timer that is cancelled when the simulator closes. */
	later(ms: number, fn: () => void): void {
		if (this.closed) return;
		const t = setTimeout(() => {
			this.timers.delete(t);
			fn();
		}, ms);
		this.timers.add(t);
	}

	close(): void {
		this.closed = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
	}
}
