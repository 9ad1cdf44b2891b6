// The upstream's webhook endpoints (docs/upstream.md, webhooks): the creation the API document
// shapes, and the list, read and delete it names without shapes, as the simulator answers them
// (docs/simulator.md). The kit relies on the creation alone; the delete it sends is best effort.
import { z } from 'zod/mini';
import { Url } from './common.ts';
import { SuccessBody } from './bodies.ts';
import { WebhookEndpoint } from './resources.ts';
import { route } from './routes.ts';

/** Webhook endpoint ids have the `we_` prefix; as a path segment, a short safe token. */
export const WEBHOOK_ENDPOINT_ID = /^we_[A-Za-z0-9_-]{1,125}$/;
const endpointId = {
	endpointId: /*@__PURE__*/ z
		.string()
		.check(z.regex(WEBHOOK_ENDPOINT_ID, 'not a webhook endpoint id'))
};

/** `events`: event types, or `['*']` for every one. */
export const WebhookEndpointRequest = z.looseObject({
	url: Url,
	description: z.optional(/*@__PURE__*/ z.string().check(z.maxLength(200))),
	events: /*@__PURE__*/ z
		.array(/*@__PURE__*/ z.string().check(z.minLength(1)))
		.check(z.minLength(1))
});
export type WebhookEndpointRequest = z.infer<typeof WebhookEndpointRequest>;

/** The signing secret (`whsec_`) is shown only here, beside the endpoint. */
export const WebhookEndpointCreated = z.looseObject({
	endpoint: WebhookEndpoint,
	secret: /*@__PURE__*/ z.string().check(z.regex(/^whsec_[A-Za-z0-9_-]+$/))
});
export type WebhookEndpointCreated = z.infer<typeof WebhookEndpointCreated>;

export const webhookCreate = /*@__PURE__*/ route('webhookCreate', {
	method: 'POST',
	path: '/webhook-endpoints',
	scope: 'webhooks:manage',
	request: WebhookEndpointRequest,
	response: WebhookEndpointCreated,
	status: 201
});
export const webhookList = /*@__PURE__*/ route('webhookList', {
	method: 'GET',
	path: '/webhook-endpoints',
	scope: 'webhooks:manage',
	response: z.looseObject({ endpoints: z.array(WebhookEndpoint) })
});
export const webhookRead = /*@__PURE__*/ route('webhookRead', {
	method: 'GET',
	path: '/webhook-endpoints/:endpointId',
	scope: 'webhooks:manage',
	params: endpointId,
	response: z.looseObject({ endpoint: WebhookEndpoint })
});
export const webhookDelete = /*@__PURE__*/ route('webhookDelete', {
	method: 'DELETE',
	path: '/webhook-endpoints/:endpointId',
	scope: 'webhooks:manage',
	params: endpointId,
	response: SuccessBody
});
