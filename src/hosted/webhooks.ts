// Hosted mode's webhooks put together (docs/hosted.md, webhooks): the endpoints' store, their
// registration at sign-in, the receiving route, and the scopes a sign-in asks for.
import type { Hono } from 'hono';
import type { ActivitySink } from '../server/activity/sink.ts';
import { OAUTH_SCOPES } from '../server/oauth-client.ts';
import type { SecretBox } from './crypto.ts';
import type { Db } from './db.ts';
import type { HostedConnections } from './connections.ts';
import type { HostedIntakes } from './intakes.ts';
import type { HostedMetrics } from './metrics.ts';
import { WebhookEndpoints } from './webhook-endpoints.ts';
import { WEBHOOK_SCOPE, WebhookRegistration, webhooksEnabled } from './webhook-registration.ts';
import { webhookRoutes } from './webhook-route.ts';

export interface HostedWebhooks {
	registration: WebhookRegistration;
	/** POST /webhooks/:id */
	routes: Hono;
}

/** What a sign-in asks for: webhooks:manage only where webhooks can be delivered (https). */
export const signInScopes = (publicUrl: string): readonly string[] =>
	webhooksEnabled(publicUrl) ? [...OAUTH_SCOPES, WEBHOOK_SCOPE] : OAUTH_SCOPES;

export function hostedWebhooks(
	p: {
		db: Db;
		connections: Pick<HostedConnections, 'upstream'>;
		/** The streamers' intakes held here (null: none). */
		intakes: HostedIntakes | null;
		metrics: HostedMetrics;
	},
	box: SecretBox,
	publicUrl: string,
	/** Absent: recorded nowhere (the events still reach the intake held here). */
	sink: ActivitySink = { record: async () => {} }
): HostedWebhooks {
	const endpoints = new WebhookEndpoints(p.db, box);
	const { intakes } = p;
	return {
		registration: new WebhookRegistration({
			endpoints,
			publicUrl,
			upstreamOf: (streamer) => p.connections.upstream(streamer)
		}),
		routes: webhookRoutes({
			endpoints,
			sink,
			heard: intakes ? (streamer, event) => intakes.heard(streamer, event) : undefined,
			counted: (outcome) => p.metrics.webhook(outcome)
		})
	};
}
