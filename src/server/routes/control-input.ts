// The JSON body of a /control route, limited with Hono's bodyLimit (guards.ts, limitBody) and
// checked with Hono's validator against its schema in src/contract/control-bodies.ts: the route reads it
// as `c.req.valid('json')`. A body that does not match is the route's 400, naming the field. The
// bodies /api forwards (proxy.ts) are read with the same checkedBody.
import type { Context, MiddlewareHandler, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import type { z } from 'zod/mini';
import { MAX_BODY, type RouteBody } from '../../contract/control-bodies.ts';
import { HttpError } from '../http-error.ts';
import { limitBody } from './guards.ts';

/** The 400 of a body that does not match its schema (its error), or is not JSON (null). */
export type Refusal = (error: z.core.$ZodError | null) => HttpError;

export interface BodySpec<S extends z.ZodMiniType> {
	schema: S;
	refuse: Refusal;
	/** No body at all reads as `{}` (the routes whose body is optional). */
	optional?: boolean;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** The 400 bad_request of a body that is not JSON at all. */
export const notJson = () => new HttpError(400, 'bad_request', 'expected a JSON body');

/** Hono's bodyLimit at the route's `maxBody` (MAX_BODY when it has none). */
export const limitOf = (route: RouteBody): MiddlewareHandler =>
	limitBody(route.maxBody ?? MAX_BODY);

/**
 * The route's validator (Hono's, of `json`): the body parsed once and checked. `spec` may depend on the request (an action's body is an order id or
 * nothing, as the action says).
 */
export function jsonInput<S extends z.ZodMiniType>(
	spec: BodySpec<S> | ((c: Context) => BodySpec<S>)
) {
	const specOf = typeof spec === 'function' ? spec : () => spec;
	// Hono parses a body sent as JSON, and only that: its parse is the one used. A body sent
	// without a JSON Content-Type (fetch's default for a string is text) is parsed here, so that
	// every body is judged by its bytes alone.
	const check = validator('json', async (value, c): Promise<z.output<S>> =>
		isJson(c) ? checked(specOf(c), value) : checkedBody(specOf(c), await c.req.text())
	);
	const run = async (c: Context, next: Next): Promise<Response | void> => {
		// Hono's parse would refuse an empty body sent as JSON. (The text read here is kept: Hono
		// parses it, once, from that.)
		if (isJson(c) && (await c.req.text()).trim() === '') {
			// An optional body is `{}`.
			c.req.addValidatedData('json', checkedBody(specOf(c), '') as object);
			return next();
		}
		// Hono's own answer to a JSON body that does not parse is the route's refusal here, so that
		// every 400 of the route reads the same.
		let reached = false;
		try {
			return (await check(c, () => ((reached = true), next()))) as Response | void;
		} catch (err) {
			if (!reached && err instanceof HTTPException) throw specOf(c).refuse(null);
			throw err;
		}
	};
	return run as unknown as typeof check;
}

/** A body's text parsed and checked against `spec` (the /control routes', and /api's forwarded calls). */
export function checkedBody<S extends z.ZodMiniType>(spec: BodySpec<S>, text: string): z.output<S> {
	const json = parsed(text, spec.optional === true);
	if (json === NOT_JSON) throw spec.refuse(null);
	return checked(spec, json);
}

function checked<S extends z.ZodMiniType>(spec: BodySpec<S>, json: unknown): z.output<S> {
	const result = spec.schema.safeParse(json);
	if (!result.success) throw spec.refuse(result.error);
	return result.data as z.output<S>;
}

function isJson(c: Context): boolean {
	const type = c.req.header('content-type');
	return type !== undefined && JSON_TYPE.test(type.split(';')[0].trim());
}

const NOT_JSON = Symbol('not JSON');

function parsed(text: string, optional: boolean): unknown {
	if (optional && text.trim() === '') return {};
	try {
		return JSON.parse(text);
	} catch {
		return NOT_JSON;
	}
}
