// The receiving end of the upstream's webhooks (docs/hosted.md, webhooks): `POST /webhooks/:id`,
// on any instance. The raw body (bounded) is verified before anything is parsed
// (webhook-signature.ts); any failure is a bare 401 and changes nothing. A verified delivery is
// answered 204 at once and applied afterwards: handed to the activity sink (which keeps each
// envelope id once, whichever way it came) and to the streamer's intake if this instance holds it.
import { Hono } from 'hono';
import { EventEnvelope, describeIssues } from '../contract/index.ts';
import type { ActivitySink } from '../server/activity/sink.ts';
import { withinDeadline } from '../server/deadline.ts';
import { limitBody } from '../server/routes/guards.ts';
import type { WebhookEndpoints } from './webhook-endpoints.ts';
import { signatureValid } from './webhook-signature.ts';

/** Far above any event envelope; a larger body is refused 413 before it is read in full. */
export const MAX_WEBHOOK_BODY = 256 * 1024;
/** How long a delivery waits for its endpoint's row; past it 503, and the upstream tries again. */
const LOOKUP_DEADLINE_MS = 1_000;

export type WebhookOutcome = 'accepted' | 'refused' | 'unavailable';

export interface WebhookRouteOptions {
	endpoints: Pick<WebhookEndpoints, 'byHook'>;
	sink: ActivitySink;
	/** The event for the streamer's intake, when this instance holds it (its view dedupes by id). */
	heard?: (streamer: string, event: EventEnvelope) => void;
	counted?: (outcome: WebhookOutcome) => void;
	now?: () => number;
	log?: (line: string) => void;
}

export function webhookRoutes(o: WebhookRouteOptions): Hono {
	const app = new Hono();
	const now = o.now ?? Date.now;
	const log = o.log ?? ((line: string) => console.warn(line));
	app.post('/webhooks/:id', limitBody(MAX_WEBHOOK_BODY), async (c) => {
		const body = new Uint8Array(await c.req.arrayBuffer());
		const found = await withinDeadline(o.endpoints.byHook(c.req.param('id')), LOOKUP_DEADLINE_MS)
			.then((r) => r)
			.catch(() => ({ done: false as const }));
		if (!found.done) {
			o.counted?.('unavailable');
			return c.body(null, 503, { 'Retry-After': '5' });
		}
		const hook = found.value;
		const signature = c.req.header('service-signature');
		if (!hook || !signatureValid(signature, body, hook.secret, Math.floor(now() / 1000))) {
			o.counted?.('refused');
			return c.body(null, 401);
		}
		o.counted?.('accepted');
		setImmediate(() => apply(o, log, hook.streamer, body));
		return c.body(null, 204);
	});
	return app;
}

/** A verified delivery, after its answer: parsed, recorded, told to the intake held here. */
function apply(
	o: WebhookRouteOptions,
	log: (line: string) => void,
	streamer: string,
	body: Uint8Array
) {
	let json: unknown;
	try {
		json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
	} catch {
		return log(`[webhook] ${streamer}: a delivery that is not JSON was dropped`);
	}
	const envelope = EventEnvelope.safeParse(json);
	if (!envelope.success)
		return log(
			`[webhook] ${streamer}: a malformed delivery was dropped: ${describeIssues(envelope.error)}`
		);
	void o.sink.record(streamer, envelope.data, 'webhook').catch((err: unknown) => {
		log(`[webhook] ${streamer}: not recorded: ${(err as Error).message}`);
	});
	try {
		o.heard?.(streamer, envelope.data);
	} catch (err) {
		log(`[webhook] ${streamer}: the intake did not take it: ${(err as Error).message}`);
	}
}
