// /api/*: the calls the pages make to the upstream, forwarded with the server's credential. Only
// the contract's allowlist (routes marked `proxied`) goes through, with its query and body checked
// against the route's schemas; the upstream's answer comes back with its status, body and rate
// limit headers and nothing else. A page's read the streamer's live view can answer is answered from
// it instead (intake/page-reads.ts), moderated as the upstream's answer would be, and costs the
// upstream nothing, and so is GET /me once read for the credential (intake/account.ts); a claim
// runner's queue read with a fresh ticket always goes upstream (routes/read-limit.ts), and so does
// a read the view cannot answer, counted in the read allowance.
import type { Hono } from 'hono';
import { MAX_BODY } from '../../contract/control-bodies.ts';
import { matchRoute, ROUTES, type Route } from '../../contract/index.ts';
import { HttpError } from '../http-error.ts';
import { bodyBytes, UpstreamUnavailable } from '../upstream.ts';
import { checkedBody } from './control-input.ts';
import { refuseBody, tooLarge } from './guards.ts';
import type { RequireKey } from './overlay-key.ts';
import { isModeratedRoute, type Moderator } from '../moderation/moderator.ts';
import type { Thanker } from '../chat/thanker.ts';
import { StoreDeadline } from '../deadline.ts';
import {
	answerFromIntake,
	SEEN_EVENT_HEADER,
	seenEvents,
	type ViewSource
} from '../intake/page-reads.ts';
import type { PageQuery } from '../../core/view/answers.ts';

const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];

export function proxyRoutes(
	app: Hono,
	requireKey: RequireKey,
	moderator: Moderator,
	thanker: Thanker,
	/** The streamer's intake, whose live view answers pages' reads; none: every read goes upstream. */
	intakeOf: (streamer: string) => ViewSource | null = () => null
) {
	/** The thanks notes' store (chat/thanker.ts) on a finish's path. */
	const notes = new StoreDeadline();
	app.all('/api/*', requireKey, async (c) => {
		const url = new URL(c.req.url);
		const path = url.pathname.slice('/api'.length);
		const match = matchRoute(c.req.method, path);
		if (!match || !match.route.proxied) throw notForwarded(c.req.method, path);
		const { query, parsed } = checkedQuery(match.route, url);
		let body: string | undefined;
		if (match.route.request) {
			const text = await c.req.text();
			if (text.length > MAX_BODY) throw tooLarge();
			const spec = { schema: match.route.request, optional: true, refuse: invalidBody };
			body = JSON.stringify(checkedBody(spec, text));
		} else await refuseBody(c);
		const { streamer, upstream } = c.var.caller;
		const name = match.name;
		const read = c.var.read;
		if (read) {
			const source = read.claim ? null : intakeOf(streamer);
			// The account as read once for the credential (intake/account.ts), unmoderated as ever.
			if (name === 'me' && source?.account)
				return passThrough(await source.account.read(read.charge));
			// Holding the last events the page's own socket brought, if it names them.
			const seen = seenEvents(c.req.header(SEEN_EVENT_HEADER));
			const answer =
				source && (await answerFromIntake(source, name, match.params, parsed, { seen }));
			if (answer !== null) {
				const res = Response.json(answer);
				if (!isModeratedRoute(name)) return passThrough(res);
				return passThrough(res, (a) => moderator.rewrite(streamer, upstream, name, a, 'page'));
			}
			read.charge();
		}
		// A queue read with a fresh read ticket goes as a claim (read-limit.ts decided it).
		const priority = { priority: c.var.readPriority };
		if (!isModeratedRoute(name))
			return passThrough(await upstream.call(match.route.method, path + query, body, priority));
		// Tips and videos are decided and rewritten before a page sees them (moderation/moderator.ts),
		// from the rules in memory when the store is slow: no store holds an alert.
		const start = name === 'ttsStart' ? 'tts' : name === 'mediaStart' ? 'media' : null;
		if (start) await moderator.beforeStart(streamer, upstream, start, match.params.orderId);
		// A tip's finish is its alert read on stream: noted before, so its thanks is owed once
		// (chat/thanker.ts), even if this process stops before the answer. Waited for
		// STORE_DEADLINE_MS at most (src/server/deadline.ts): past it the finish goes on, and the
		// note is settled from the played history if it lands after the answer.
		const finish = name === 'ttsFinish' ? match.params.orderId : null;
		const noted = finish ? thanker.beforeFinish(streamer, finish) : null;
		if (noted) await notes.wait(noted);
		const res = await upstream.call(match.route.method, path + query, body, priority);
		return passThrough(res, async (answer) => {
			if (start) await moderator.afterStart(streamer, upstream, answer);
			// Not waited for: the page's claim or finish is answered at once (neither ever throws; a
			// finish noted above and not settled here is settled from the played history).
			if (start === 'tts') void thanker.alertStarted(streamer);
			// After the note, never before it: a note written after its settlement would stay.
			if (finish) void noted!.then(() => thanker.afterFinish(streamer, finish, answer));
			return moderator.rewrite(streamer, upstream, name, answer, 'page');
		});
	});
}

/** A 405 naming the methods forwarded for this path, or a 404 when none is. */
function notForwarded(method: string, path: string): HttpError {
	const allowed = new Set<string>();
	for (const r of Object.values(ROUTES) as Route[])
		if (r.proxied && matchRoute(r.method, path)?.route === r) allowed.add(r.method);
	if (allowed.size)
		return new HttpError(405, 'method_not_allowed', `${method} is not forwarded for this path`, {
			Allow: [...allowed].join(', ')
		});
	return new HttpError(404, 'not_forwarded', 'this call is not forwarded to the upstream');
}

/**
 * The query forwarded (`?...` or ''), and its declared keys as parsed: the view answers by them
 * (the reads it answers declare `limit` and `before` as these types, src/contract/bodies.ts). Only
 * a route with a query schema forwards a query, and only what that schema lets through.
 */
export function checkedQuery(route: Route, url: URL): { query: string; parsed: PageQuery } {
	const parsed: Record<string, unknown> = {};
	if (!route.query || !url.search) return { query: '', parsed: {} };
	const checked = route.query.safeParse(Object.fromEntries(url.searchParams));
	if (!checked.success) throw new HttpError(400, 'bad_request', 'invalid query');
	const kept = new URLSearchParams();
	// The query schemas are loose (parse leniently): forward only the keys they declare.
	const declared = (route.query as { shape?: Record<string, unknown> }).shape ?? {};
	for (const [k, v] of Object.entries(checked.data as Record<string, unknown>))
		if (k in declared && v !== undefined) {
			kept.set(k, String(v));
			parsed[k] = v;
		}
	return { query: kept.size ? '?' + kept.toString() : '', parsed: parsed as PageQuery };
}

const invalidBody = () => new HttpError(400, 'bad_request', 'invalid request body');

/**
 * Upstream status, body and RateLimit-* headers; nothing else (no cookies, no upstream CORS). A body
 * that cannot be read (the upstream went away, the call's timeout) is a failed call. The bytes and a
 * plain header object are what the Node adapter writes out directly, with Content-Length; other
 * bodies (an ArrayBuffer, a stream) cost it a Response object and a stream reader per call.
 */
export async function passThrough(
	res: Response,
	/** Rewrites a successful JSON object answer (a page's tips, moderated). */
	rewrite?: (body: Record<string, unknown>) => Promise<Record<string, unknown>>
): Promise<Response> {
	const headers: Record<string, string> = {
		'content-type': res.headers.get('content-type') ?? 'application/json',
		'cache-control': 'no-store'
	};
	for (const h of RATE_HEADERS) {
		const v = res.headers.get(h);
		if (v !== null) headers[h] = v;
	}
	let body: Uint8Array<ArrayBuffer> | null = null;
	if (res.status !== 204) {
		try {
			body = await bodyBytes(res);
		} catch (err) {
			throw new UpstreamUnavailable(err instanceof Error ? err.message : String(err));
		}
	}
	if (rewrite && res.ok && body !== null) body = await rewritten(body, rewrite);
	return new Response(body, { status: res.status, headers });
}

/**
 * The answer rewritten. One that is not a JSON object cannot be decided, so it is not handed on as
 * it is (it may hold a tip's message or audio): the upstream's answer counts as failed.
 */
async function rewritten(
	bytes: Uint8Array<ArrayBuffer>,
	rewrite: (body: Record<string, unknown>) => Promise<Record<string, unknown>>
): Promise<Uint8Array<ArrayBuffer>> {
	let json: unknown;
	try {
		json = JSON.parse(new TextDecoder().decode(bytes));
	} catch {
		json = null;
	}
	if (typeof json !== 'object' || json === null || Array.isArray(json))
		throw new UpstreamUnavailable('the upstream answered with something that is not a JSON object');
	return new TextEncoder().encode(JSON.stringify(await rewrite(json as Record<string, unknown>)));
}
