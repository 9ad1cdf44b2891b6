// A /control route served from its contract: its method and path from CONTROL
// (src/contract/control.ts), and its request checked with Hono's validator as
// src/contract/control-bodies.ts says: the path's parameters, then the body's size (Hono's
// bodyLimit, guards.ts) and its JSON. A parameter or a body that does not match is the route's 400
// (or 404), naming the field; a route that takes no body refuses one. The bodies /api forwards
// (proxy.ts) are read with the same checkedBody.
import type { Context, Hono, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import type { z } from 'zod/mini';
import { CONTROL } from '../../contract/control.ts';
import { CONTROL_BODIES, MAX_BODY, type RouteBody } from '../../contract/control-bodies.ts';
import { describeIssues } from '../../contract/index.ts';
import type { CallerEnv } from '../caller.ts';
import { HttpError } from '../http-error.ts';
import { limitBody, refuseBody } from './guards.ts';

/** The 400 of a body that does not match its schema (its error), or is not JSON (null). */
export type Refusal = (error: z.core.$ZodError | null) => HttpError;

export interface BodySpec<S extends z.ZodMiniType> {
	schema: S;
	refuse: Refusal;
	/** No body at all reads as `{}` (the routes whose body is optional). */
	optional?: boolean;
}

type Name = keyof typeof CONTROL;
type Spec<N extends Name> = (typeof CONTROL_BODIES)[N];
type Output<T> = T extends z.ZodMiniType ? z.output<T> : never;
/** What a route's handler is given: its checked body and path parameters. */
export interface Input<N extends Name> {
	body: Spec<N> extends { body: infer S } ? Output<S> : unknown;
	params: Spec<N> extends { params: infer P } ? { [K in keyof P]: Output<P[K]> } : object;
}

export interface ServeOptions {
	/** The body's 400 (default: bad_request with the route's `badBody`). */
	refuse?: Refusal;
	/** The body's spec when it depends on the request (an action's, on the action). */
	body?: (c: Context) => BodySpec<z.ZodMiniType>;
	/** Runs once the parameters are checked, before the body is read. */
	before?: (c: Context) => void;
	/** The query's schema (Hono's validator of `query`; a 400 names the field): `c.req.valid('query')`. */
	query?: z.ZodMiniType;
}

/** The answer to a path parameter that does not match: 400 bad_request naming it, unless below. */
const BAD_PARAM: Record<string, () => HttpError> = {
	action: () => new HttpError(404, 'not_found', 'no such dock action'),
	target: () =>
		new HttpError(
			400,
			'bad_target',
			'expected a widget (tts, media, tip-goal, counters, celebration, recent, leaderboard) or an overlay id (o_ and 8 hex digits)'
		)
};

/** The 400 bad_request of a body that is not JSON at all. */
export const notJson = () => new HttpError(400, 'bad_request', 'expected a JSON body');

/** Serves the contract's route `name` on `app`: `answer` gets the request once it is checked. */
export function serve<N extends Name>(
	app: Hono<CallerEnv>,
	name: N,
	answer: (c: Context<CallerEnv>, input: Input<N>) => Response | Promise<Response>,
	o: ServeOptions = {}
): void {
	const { method, path } = CONTROL[name];
	const spec: RouteBody = CONTROL_BODIES[name];
	const { body: schema, badBody = 'expected a JSON body' } = spec;
	const refuse: Refusal = o.refuse ?? (() => new HttpError(400, 'bad_request', badBody));
	const bodySpec = o.body ?? (schema ? () => ({ schema, refuse, optional: spec.optional }) : null);
	app.on(
		method,
		path,
		validator('param', (params) => checkedParams(spec.params ?? {}, params)),
		validator('query', (query) => (o.query ? checkedQuery(o.query, query) : query)),
		(c, next) => (o.before?.(c), next()),
		limitBody(spec.maxBody ?? MAX_BODY),
		bodySpec ? jsonInput(bodySpec) : (c, next) => refuseBody(c).then(next),
		(c) =>
			answer(
				c as Context<CallerEnv>,
				{
					body: bodySpec ? c.req.valid('json' as never) : undefined,
					params: c.req.valid('param')
				} as Input<N>
			)
	);
}

function checkedParams(
	schemas: Record<string, z.ZodMiniType<string>>,
	params: Record<string, string>
): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, schema] of Object.entries(schemas)) {
		const parsed = schema.safeParse(params[key]);
		if (!parsed.success)
			throw (
				BAD_PARAM[key]?.() ??
				new HttpError(400, 'bad_request', `${key}: ${describeIssues(parsed.error)}`)
			);
		out[key] = parsed.data;
	}
	return out;
}

function checkedQuery(schema: z.ZodMiniType, query: Record<string, string | string[]>): unknown {
	const parsed = schema.safeParse(query);
	if (!parsed.success) throw new HttpError(400, 'bad_request', describeIssues(parsed.error));
	return parsed.data;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * The route's validator (Hono's, of `json`): the body parsed once and checked against the spec the
 * request calls for.
 */
function jsonInput<S extends z.ZodMiniType>(specOf: (c: Context) => BodySpec<S>) {
	// Hono parses a body sent as JSON, and only that: its parse is the one used. A body sent
	// without a JSON Content-Type (fetch's default for a string is text) is parsed here, so that
	// every body is judged by its bytes alone.
	const check = validator('json', async (value, c): Promise<z.output<S>> =>
		isJson(c) ? checked(specOf(c), value) : checkedBody(specOf(c), await c.req.text())
	);
	return async (c: Context, next: Next): Promise<Response | void> => {
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
