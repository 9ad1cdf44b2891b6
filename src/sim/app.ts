// The simulator's HTTP surface as a web-standard app: the upstream API under /v1 (dispatched through
// the contract's route table), rendered audio, the demo videos, and the control API under /_sim.
import { serveStatic } from '@hono/node-server/serve-static';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { fileURLToPath } from 'node:url';
import { describeIssues, matchRoute, type Actor } from '../contract/index.ts';
import type { ApiKey, RateState } from './auth.ts';
import { controlApp, type SimControl } from './control.ts';
import type { SimCore } from './core.ts';
import { SimError } from './errors.ts';
import { checkChatMessage } from './chat.ts';
import { HANDLERS } from './handlers.ts';
import { oauthActor, oauthApp } from './oauth-app.ts';

const publicDir = fileURLToPath(new URL('../../public', import.meta.url));
const MAX_BODY_BYTES = 64 * 1024;

export function createSimApp(core: SimCore, control: SimControl): Hono {
	const app = new Hono();

	app.all('/v1/*', (c) => handleApi(core, c));

	// Fetches of audio and videos are logged too (the chaos ledger: "its audio was played").
	app.use('/audio/*', logAsset(core));
	app.use('/demo/*', logAsset(core));

	// Rendered TTS audio: fetched by the overlay itself (no credential), like a CDN URL.
	app.get('/audio/:file', async (c) => {
		const orderId = /^(.+)\.wav$/.exec(c.req.param('file'))?.[1];
		const broken = orderId ? core.faults.brokenAudio.get(orderId) : undefined;
		const headers = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' };
		if (!orderId || broken === 'missing') return c.json({ error: 'no such audio' }, 404, headers);
		if (broken === 'corrupt')
			return c.body('this is not audio', 200, { ...headers, 'Content-Type': 'audio/wav' });
		const bytes = await core.audio.get(orderId);
		if (!bytes) return c.json({ error: 'no such audio' }, 404, headers);
		return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
			...headers,
			'Content-Type': 'audio/wav'
		});
	});

	app.use('/demo/*', async (c, next) => {
		await next();
		c.header('Access-Control-Allow-Origin', '*');
	});
	// A video URL broken on demand (`brokenVideo`): missing (404) or bytes that are no video.
	app.use('/demo/*', async (c, next) => {
		const url = new URL(c.req.url);
		const broken = core.faults.brokenVideo.get(url.pathname + url.search);
		if (broken === 'missing') return c.json({ error: 'no such video' }, 404);
		if (broken === 'corrupt')
			return c.body('this is not a video', 200, { 'Content-Type': 'video/webm' });
		return next();
	});
	app.use('/demo/*', serveStatic({ root: publicDir }));

	app.route('/_sim', controlApp(control));
	app.route('/', oauthApp(core));

	app.get('/', (c) =>
		c.json({
			service: 'tip service simulator',
			base_url: `${core.origin}/v1`,
			ws_url: core.origin.replace(/^http/, 'ws') + '/realtime',
			oauth_url: core.origin
		})
	);
	app.notFound((c) => c.json({ error: 'not found', code: 'not_found' }, 404));
	app.onError((err, c) => {
		if (!core.options.quiet) console.error('[sim] unexpected error', err);
		return c.json({ error: 'internal error' }, 500);
	});
	return app;
}

function logAsset(core: SimCore) {
	return async (c: Context, next: () => Promise<void>) => {
		await next();
		const url = new URL(c.req.url);
		core.log.asset({ method: c.req.method, path: url.pathname + url.search, status: c.res.status });
	};
}

function clientIp(c: Context): string {
	try {
		return getConnInfo(c).remote.address ?? 'local';
	} catch {
		return 'local'; // app.request() in tests has no socket
	}
}

function rateHeaders(rate: RateState): Record<string, string> {
	return {
		'RateLimit-Limit': String(rate.limit),
		'RateLimit-Remaining': String(rate.remaining),
		'RateLimit-Reset': String(rate.reset)
	};
}

async function handleApi(core: SimCore, c: Context): Promise<Response> {
	const method = c.req.method;
	const path = new URL(c.req.url).pathname.slice('/v1'.length) || '/';
	let rate = core.ipLimiter.hit(clientIp(c));
	let key: ApiKey | undefined;
	const answer = (status: number, body: unknown, code?: string, retryAfter?: number): Response => {
		core.log.request({
			method,
			path,
			status,
			...(code ? { code } : {}),
			key: key?.id,
			...(key && core.models.size > 1 ? { tenant: core.modelOf(key).tenant.id } : {})
		});
		const headers = rateHeaders(rate);
		if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
		return c.json(body, status as 200, headers);
	};
	try {
		if (rate.limited) throw new SimError(429, null, 'too many requests from this address');
		key = core.credentials.authenticate(c.req.header('authorization'));
		const keyRate = core.keyLimiter.hit(key.id);
		// Show whichever budget is closer to running out.
		if (keyRate.remaining <= rate.remaining || keyRate.limited) rate = keyRate;
		if (keyRate.limited) throw new SimError(429, null, 'too many requests for this key');

		const fault = core.faults.takeHttp(path);
		if (fault === 429) throw new SimError(429, null, 'too many requests (injected)', {}, 1);
		if (fault === 502) throw new SimError(502, null, 'bad gateway (injected)');

		const match = matchRoute(method, path);
		if (!match) throw new SimError(404, 'not_found', `no such resource: ${method} ${path}`);
		core.credentials.requireScope(key, match.route.scope);

		const query = match.route.query
			? parseOr400(match.route.query, Object.fromEntries(new URL(c.req.url).searchParams), 'query')
			: {};
		const raw = match.route.request ? await readJson(c) : {};
		if (match.name === 'chatSend') checkChatMessage(raw);
		const body = match.route.request ? parseOr400(match.route.request, raw, 'body') : {};
		const actor: Actor = key.oauth
			? oauthActor(key.oauth)
			: { type: 'api_key', id: key.id, name: key.name };
		const tenant = core.asTenant(key);
		const result = HANDLERS[match.name](tenant, {
			params: match.params,
			query,
			body,
			key,
			actor
		});
		// Emit strictly: every answer is checked against the same schema the clients parse with.
		const ok = answer(match.route.status, match.route.response.parse(result));
		// A chat message posted whose answer a test has lost (chat.ts, `lose`).
		const loss =
			match.name === 'chatSend' ? tenant.chatOf(tenant.model.tenant.id).takeLoss() : null;
		if (loss?.mode === '504') return new Response(null, { status: 504 });
		if (loss?.mode === 'late') await new Promise((r) => setTimeout(r, loss.delayMs));
		return ok;
	} catch (err) {
		if (err instanceof SimError)
			return answer(err.status, err.body(), err.code ?? undefined, err.retryAfter);
		// Even a fault of the simulator's own is an answer with the headers (docs/upstream.md: every
		// one).
		if (!core.options.quiet) console.error('[sim] unexpected error', err);
		return answer(500, { error: 'internal error' });
	}
}

function parseOr400(
	schema: { safeParse(v: unknown): { success: boolean; data?: unknown; error?: unknown } },
	value: unknown,
	where: string
): Record<string, unknown> {
	const r = schema.safeParse(value);
	if (!r.success)
		throw new SimError(
			400,
			'bad_request',
			`invalid ${where}: ${describeIssues(r.error as Parameters<typeof describeIssues>[0])}`
		);
	return r.data as Record<string, unknown>;
}

async function readJson(c: Context): Promise<unknown> {
	const text = await c.req.text();
	if (text.length > MAX_BODY_BYTES) throw new SimError(400, 'bad_request', 'body too large');
	if (text.trim() === '') return {};
	try {
		return JSON.parse(text);
	} catch {
		throw new SimError(400, 'bad_request', 'body is not valid JSON');
	}
}
