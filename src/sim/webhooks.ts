// The simulated service's webhooks (docs/upstream.md, webhooks; docs/simulator.md): each account's
// endpoints (at most 10), and every event the model emits POSTed to each active endpoint subscribed
// to its type, signed `t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the endpoint's secret,
// retried on a non-2xx answer up to 8 attempts with backoff (compressed in time), the identical
// body signed again with a fresh t on each attempt.
import { createHmac, randomBytes } from 'node:crypto';
import type { z } from 'zod/mini';
import {
	EVENT_DESCRIPTIONS,
	type EventEnvelope,
	type WebhookEndpoint,
	type WebhookEndpointRequest
} from '../contract/index.ts';
import { badRequest, notFound } from './errors.ts';
import { deliveryTarget, refusedWebhookUrl } from './webhook-urls.ts';

type Endpoint = z.infer<typeof WebhookEndpoint>;

const MAX_ENDPOINTS = 10;
const MAX_ATTEMPTS = 8;
/** Deliveries that exhausted every retry, in a row, before an endpoint is disabled. */
const DISABLE_AFTER = 5;
const DELIVERY_TIMEOUT_MS = 10_000;
const KEPT_DELIVERIES = 500;

interface Registered {
	tenantId: string;
	endpoint: Endpoint;
	secret: string;
}

/** One attempt of a delivery, as the simulator saw its answer (tests, docs/simulator.md). */
export interface DeliveryAttempt {
	delivery: string;
	endpoint: string;
	eventId: string;
	type: string;
	attempt: number;
	/** The receiver's status; 0: no answer (refused, timed out). */
	status: number;
}

export interface WebhookHost {
	/** A timer cancelled when the simulator closes. */
	later(ms: number, fn: () => void): void;
	/** Duplicate-delivery fault (faults.ts): whether this delivery is sent once more after success. */
	takeDuplicateDelivery(): boolean;
}

export class SimWebhooks {
	private readonly endpoints = new Map<string, Registered>();
	/** Every attempt, oldest first (the last KEPT_DELIVERIES). */
	readonly attempts: DeliveryAttempt[] = [];
	/** The relaxation for loopback: an https origin → the local origin serving it. */
	readonly targets = new Map<string, string>();

	constructor(
		private readonly host: WebhookHost,
		/** The first delay between attempts, doubling after each (the real one spans hours). */
		private readonly retryBaseMs = 250,
		private readonly now: () => number = Date.now
	) {}

	create(tenantId: string, body: WebhookEndpointRequest): { endpoint: Endpoint; secret: string } {
		const refused = refusedWebhookUrl(body.url);
		if (refused) throw badRequest(refused);
		const unknown = body.events.filter((e) => !Object.hasOwn(EVENT_DESCRIPTIONS, e));
		if (!(body.events.length === 1 && body.events[0] === '*') && unknown.length)
			throw badRequest(`unknown event types: ${unknown.join(', ')} (or ["*"] alone)`);
		if (this.list(tenantId).length >= MAX_ENDPOINTS)
			throw badRequest(`endpoint limit reached (${MAX_ENDPOINTS} per account)`);
		const endpoint: Endpoint = {
			id: `we_${randomBytes(8).toString('hex')}`,
			url: body.url,
			description: body.description ?? null,
			events: [...body.events],
			is_active: true,
			disabled_reason: null,
			consecutive_failures: 0,
			last_success_at: null,
			last_failure_at: null,
			created_at: new Date(this.now()).toISOString()
		};
		const secret = `whsec_${randomBytes(24).toString('base64url')}`;
		this.endpoints.set(endpoint.id, { tenantId, endpoint, secret });
		return { endpoint: { ...endpoint }, secret };
	}

	list(tenantId: string): Endpoint[] {
		return [...this.endpoints.values()]
			.filter((r) => r.tenantId === tenantId)
			.map((r) => ({ ...r.endpoint }));
	}

	get(tenantId: string, id: string): Endpoint {
		return { ...this.own(tenantId, id).endpoint };
	}

	remove(tenantId: string, id: string): void {
		this.own(tenantId, id);
		this.endpoints.delete(id);
	}

	/** The signing secret of an endpoint (tests sign their own deliveries with it). */
	secretOf(id: string): string | undefined {
		return this.endpoints.get(id)?.secret;
	}

	/** The event to every active endpoint of the account subscribed to its type. */
	deliver(event: EventEnvelope, tenantId: string): void {
		const body = JSON.stringify(event);
		for (const r of this.endpoints.values()) {
			if (r.tenantId !== tenantId || !r.endpoint.is_active) continue;
			if (!r.endpoint.events.includes('*') && !r.endpoint.events.includes(event.type)) continue;
			const delivery = `wd_${randomBytes(8).toString('hex')}`;
			this.host.later(0, () => void this.attempt(r, event, body, delivery, 1));
		}
	}

	private own(tenantId: string, id: string): Registered {
		const r = this.endpoints.get(id);
		if (!r || r.tenantId !== tenantId) throw notFound('webhook endpoint');
		return r;
	}

	private async attempt(
		r: Registered,
		event: EventEnvelope,
		body: string,
		delivery: string,
		attempt: number
	): Promise<void> {
		if (this.endpoints.get(r.endpoint.id) !== r) return; // deleted meanwhile
		const status = await this.post(r, event, body, delivery, attempt);
		this.attempts.push({
			delivery,
			endpoint: r.endpoint.id,
			eventId: event.id,
			type: event.type,
			attempt,
			status
		});
		if (this.attempts.length > KEPT_DELIVERIES) this.attempts.shift();
		const at = new Date(this.now()).toISOString();
		if (status >= 200 && status < 300) {
			r.endpoint.consecutive_failures = 0;
			r.endpoint.last_success_at = at;
			// The fault: the answer "lost", the same event comes again as the next attempt.
			if (attempt < MAX_ATTEMPTS && this.host.takeDuplicateDelivery())
				this.host.later(0, () => void this.attempt(r, event, body, delivery, attempt + 1));
			return;
		}
		r.endpoint.last_failure_at = at;
		if (attempt < MAX_ATTEMPTS) {
			const wait = this.retryBaseMs * 2 ** (attempt - 1);
			this.host.later(wait, () => void this.attempt(r, event, body, delivery, attempt + 1));
			return;
		}
		r.endpoint.consecutive_failures += 1;
		if (r.endpoint.consecutive_failures >= DISABLE_AFTER) {
			r.endpoint.is_active = false;
			r.endpoint.disabled_reason = 'too many failed deliveries';
		}
	}

	private async post(
		r: Registered,
		event: EventEnvelope,
		body: string,
		delivery: string,
		attempt: number
	): Promise<number> {
		const t = Math.floor(this.now() / 1000);
		const mac = createHmac('sha256', r.secret).update(`${t}.${body}`).digest('hex');
		try {
			const res = await fetch(deliveryTarget(r.endpoint.url, this.targets), {
				method: 'POST',
				redirect: 'manual',
				headers: {
					'content-type': 'application/json',
					'service-signature': `t=${t},v1=${mac}`,
					'service-event': event.type,
					'service-event-id': event.id,
					'service-delivery': delivery,
					'service-attempt': String(attempt)
				},
				body,
				signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS)
			});
			await res.body?.cancel();
			return res.status;
		} catch {
			return 0;
		}
	}
}
