// Registering each streamer's webhook endpoint at the upstream (docs/hosted.md, webhooks): with an
// https PUBLIC_URL only, after a sign-in that granted `webhooks:manage`, one endpoint per streamer
// (`POST /webhook-endpoints`, url `<PUBLIC_URL>/webhooks/<opaque id>`, every event type), its secret
// sealed in webhook-endpoints.ts. A re-sign-in keeps the endpoint there is; Disconnect forgets it and
// asks the upstream to delete it, best effort (an upstream without that call answers 404: fine).
import { ROUTES, WebhookEndpointCreated } from '../contract/index.ts';
import { fillPath } from '../contract/route-table.ts';
import type { UpstreamClient } from '../server/upstream.ts';
import { randomToken } from './crypto.ts';
import type { WebhookEndpoints } from './webhook-endpoints.ts';

export const WEBHOOK_SCOPE = 'webhooks:manage';

export interface WebhookRegistrationOptions {
	endpoints: WebhookEndpoints;
	publicUrl: string;
	upstreamOf: (streamer: string) => Pick<UpstreamClient, 'call'>;
	log?: (line: string) => void;
}

/** Whether webhooks are registered at all: the upstream delivers only to public https URLs. */
export const webhooksEnabled = (publicUrl: string) => new URL(publicUrl).protocol === 'https:';

export class WebhookRegistration {
	readonly #log: (line: string) => void;

	constructor(private readonly o: WebhookRegistrationOptions) {
		this.#log = o.log ?? ((line) => console.warn(line));
	}

	/**
	 * After a sign-in (`scopes`: what it granted): registers the streamer's endpoint unless they
	 * have one. Never throws: a sign-in goes on without webhooks. An answer lost is not sent again
	 * (the endpoint may exist); the next sign-in registers, and an endpoint nobody knows the secret
	 * of is refused at every delivery until the upstream disables it.
	 */
	async afterSignIn(streamer: string, scopes: string): Promise<void> {
		if (!webhooksEnabled(this.o.publicUrl) || !scopes.split(' ').includes(WEBHOOK_SCOPE)) return;
		try {
			if (await this.o.endpoints.of(streamer)) return;
			const hookId = randomToken();
			const res = await this.o.upstreamOf(streamer).call(
				'POST',
				ROUTES.webhookCreate.path,
				JSON.stringify({
					url: `${this.o.publicUrl}/webhooks/${hookId}`,
					description: 'Tip Overlay Kit',
					events: ['*']
				})
			);
			const created = WebhookEndpointCreated.safeParse(await res.json().catch(() => null));
			if (!res.ok || !created.success)
				return this.#log(
					`[webhook] ${streamer}: the upstream refused the endpoint (${res.status})`
				);
			const hook = { hookId, endpointId: created.data.endpoint.id };
			// Another sign-in of the streamer registered one meanwhile: this one is extra.
			if (!(await this.o.endpoints.add(streamer, hook, created.data.secret)))
				await this.#delete(streamer, hook.endpointId);
		} catch (err) {
			this.#log(`[webhook] ${streamer}: no endpoint registered: ${(err as Error).message}`);
		}
	}

	/** Disconnect: the streamer's endpoint forgotten here, and deleted upstream (best effort). */
	async forget(streamer: string): Promise<void> {
		try {
			const hook = await this.o.endpoints.remove(streamer);
			if (hook) await this.#delete(streamer, hook.endpointId);
		} catch (err) {
			this.#log(`[webhook] ${streamer}: the endpoint was not forgotten: ${(err as Error).message}`);
		}
	}

	async #delete(streamer: string, endpointId: string): Promise<void> {
		const route = ROUTES.webhookDelete;
		const path = fillPath(route.path, route.params, { endpointId });
		if (!path.ok) return;
		const res = await this.o
			.upstreamOf(streamer)
			.call('DELETE', path.value)
			.catch(() => null);
		await res?.body?.cancel();
	}
}
