// Hostile input against the token endpoint, on a real loopback port in front of a real simulator
// whose upstream calls are counted: oversized and malformed bodies, encoded path tricks, header
// injection, floods of wrong overlay keys, Host rebinding, markup in viewer text. Each refusal is a
// clear 4xx with a machine code, makes no upstream call, crashes nothing, and no answer carries the
// API key.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTokenEndpoint, type ServedEndpoint } from '../fixtures/served-endpoint.ts';
import { api, withSim, type Sim } from '../fixtures/sim.ts';
import { OVERLAY_KEY, simUpstream } from '../fixtures/token-endpoint.ts';

let sim: Sim;
let ep: ServedEndpoint;

beforeAll(async () => {
	sim = await withSim({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
	ep = await serveTokenEndpoint(simUpstream(sim));
});
afterAll(async () => {
	await ep.close();
	await sim.close();
});

/** A request to the served endpoint; the right key unless told otherwise. */
async function hit(
	method: string,
	path: string,
	o: { key?: string | null; body?: BodyInit; headers?: Record<string, string> } = {}
): Promise<{ res: Response; text: string }> {
	const headers: Record<string, string> = { ...o.headers };
	const key = o.key === undefined ? OVERLAY_KEY : o.key;
	if (key !== null) headers['x-overlay-key'] = key;
	const init: RequestInit & { duplex?: 'half' } = { method, headers, body: o.body };
	if (o.body instanceof ReadableStream) init.duplex = 'half';
	const res = await fetch(ep.origin + path, init);
	const text = await res.text();
	expectNoSecret(text, res.headers);
	return { res, text };
}

function expectNoSecret(text: string, headers: Headers): void {
	expect(text).not.toContain(sim.apiKey);
	expect(text).not.toContain(OVERLAY_KEY);
	for (const [name, value] of headers) {
		expect(value, name).not.toContain(sim.apiKey);
		expect(value, name).not.toContain(OVERLAY_KEY);
	}
}

/** Upstream calls made while `fn` ran. */
async function callsDuring(fn: () => Promise<void>): Promise<string[]> {
	const before = ep.calls.length;
	await fn();
	return ep.calls.slice(before);
}

function codeOf(text: string): string | undefined {
	try {
		return JSON.parse(text).code;
	} catch {
		return undefined;
	}
}

describe('bodies', () => {
	it('refuses a body above 16 kB with 413 too_large, before any upstream call', async () => {
		const calls = await callsDuring(async () => {
			for (const path of ['/api/tts/tip_1_abc/start', '/token']) {
				const { res, text } = await hit('POST', path, { body: 'x'.repeat(17 * 1024) });
				expect(res.status, path).toBe(413);
				expect(codeOf(text)).toBe('too_large');
			}
		});
		expect(calls).toEqual([]);
	});

	it('refuses a streamed body without a length once it passes the limit', async () => {
		// Chunked, 4 kB at a time, far more than the limit if nobody stopped reading.
		const chunk = `1000\r\n${'y'.repeat(4096)}\r\n`;
		const calls = await callsDuring(async () => {
			const answer = await raw(
				`POST /api/media/tip_1_abc/start HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Overlay-Key: ${OVERLAY_KEY}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
					chunk.repeat(64) +
					'0\r\n\r\n'
			);
			expect(answer).toMatch(/^HTTP\/1\.1 413/);
			expect(answer).toContain('too_large');
		});
		expect(calls).toEqual([]);
	});

	it.each([
		['malformed JSON', '{"a":'],
		['JSON null', 'null'],
		['an object', '{"order_id":"tip_2_x"}'],
		['an array', '[]'],
		['a NUL byte', '\u0000'],
		['markup', '<script>alert(1)</script>'],
		['a prototype key', '{"__proto__":{"polluted":true}}']
	])('refuses %s as the body of a call that takes none: 400 unexpected_body', async (_, body) => {
		const calls = await callsDuring(async () => {
			for (const path of ['/api/tts/tip_1_abc/start', '/api/tts/tip_1_abc/finish', '/token']) {
				const { res, text } = await hit('POST', path, {
					body,
					headers: { 'content-type': 'application/json' }
				});
				expect(res.status, path).toBe(400);
				expect(codeOf(text)).toBe('unexpected_body');
			}
		});
		expect(calls).toEqual([]);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('still forwards the calls the pages make, which have no body', async () => {
		const calls = await callsDuring(async () => {
			expect((await hit('POST', '/token')).res.status).toBe(200);
			expect((await hit('GET', '/api/tts/queue')).res.status).toBe(200);
			expect((await hit('POST', '/api/tts/tip_1_abc/start')).res.status).toBe(404);
		});
		expect(calls).toEqual(['POST /realtime/token', 'GET /tts/queue', 'POST /tts/tip_1_abc/start']);
	});
});

describe('encoded path tricks', () => {
	it.each([
		'/api/tts/%252e%252e/me',
		'/api/tts/%252e%252e%252fme/start',
		'/api/tts/tip_1%252fstart/start',
		'/api/tts/..%2f..%2fme',
		'/api/tts/%c0%ae%c0%ae/me',
		'/api/tts/%ef%bc%8e%ef%bc%8e/me',
		'/api/tts/tip_1%0d%0aX-Evil:%201/start',
		'/api/tts/tip_1%09/start',
		'/api/%61pi/me',
		'/api/tts/tip_1;x=1/start',
		'/api/tts/tip_1%3Bx/start',
		'/api/me%23/../../tts/clear'
	])('never forwards %s: a 4xx with a code, no upstream call', async (target) => {
		const calls = await callsDuring(async () => {
			for (const method of ['GET', 'POST']) {
				const { res, text } = await hit(method, target);
				expect(res.status, `${method} ${target}`).toBeGreaterThanOrEqual(400);
				expect(res.status, `${method} ${target}`).toBeLessThan(500);
				expect(codeOf(text), `${method} ${target}`).toMatch(/^[a-z_]+$/);
				expect(res.headers.get('x-evil')).toBeNull();
			}
		});
		expect(calls).toEqual([]);
	});
});

/** One raw HTTP/1.1 exchange over a socket: what a client that ignores the rules can send. */
function raw(request: string): Promise<string> {
	const { port } = new URL(ep.origin);
	return new Promise((resolve, reject) => {
		const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
		let out = '';
		socket.on('data', (d) => (out += d.toString('latin1')));
		socket.on('end', () => resolve(out));
		socket.on('close', () => resolve(out));
		socket.on('error', reject);
		setTimeout(() => (socket.destroy(), resolve(out)), 5_000);
	});
}

describe('header injection', () => {
	it.each([
		['a bare LF in a header value', `X-Overlay-Key: ${OVERLAY_KEY}\nSet-Cookie: a=b`],
		['a CR in a header value', `X-Overlay-Key: ${OVERLAY_KEY}\rSet-Cookie: a=b`],
		['a NUL in a header value', `X-Overlay-Key: ${OVERLAY_KEY}\u0000x`],
		['a space before the colon', `X-Overlay-Key : ${OVERLAY_KEY}`],
		['an obsolete folded header', `X-Overlay-Key: nope\r\n ${OVERLAY_KEY}`]
	])(
		'%s: refused, no cookie set, no upstream call, the server still answers',
		async (_, header) => {
			const calls = await callsDuring(async () => {
				const answer = await raw(
					`GET /api/tts/queue HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Test-Client: injector\r\n${header}\r\nConnection: close\r\n\r\n`
				);
				const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
				// Node's parser refuses the message (400), or it arrives without a usable key (401).
				expect([400, 401]).toContain(status);
				expect(answer.toLowerCase()).not.toContain('set-cookie');
				expect(answer).not.toContain(sim.apiKey);
			});
			expect(calls).toEqual([]);
			expect((await hit('GET', '/healthz')).res.status).toBe(200);
		}
	);

	it('a request line with CRLF smuggled in is refused without an upstream call', async () => {
		const calls = await callsDuring(async () => {
			const answer = await raw(
				`GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Overlay-Key: ${OVERLAY_KEY}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\nGET /api/tts/queue HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`
			);
			expect(answer).toMatch(/^HTTP\/1\.1 400/);
		});
		expect(calls).toEqual([]);
	});
});

describe('wrong overlay keys', () => {
	it('a flood of wrong keys of every shape gets 401 then 429, never a 5xx, never an upstream call; the right key still works', async () => {
		const keys = [
			'',
			'x',
			'x'.repeat(10_000),
			'👩‍👩‍👧‍👦'.repeat(10),
			'<script>alert(1)</script>',
			OVERLAY_KEY.slice(0, -1),
			OVERLAY_KEY + ' ',
			OVERLAY_KEY.toUpperCase(),
			'\u202Egnp',
			...Array.from({ length: 20 }, (_, i) => `wrong-key-${i}-0123456789`)
		];
		const statuses: number[] = [];
		const calls = await callsDuring(async () => {
			for (const key of keys) {
				const { res, text } = await hit('GET', '/api/me', {
					key: encodeURIComponent(key) === key ? key : encodeURIComponent(key),
					// Its own client: the limiter blocks this one for a minute, not the other tests.
					headers: { 'x-test-client': 'flooder' }
				});
				statuses.push(res.status);
				expect(['bad_overlay_key', 'too_many_attempts']).toContain(codeOf(text));
			}
		});
		expect(calls).toEqual([]);
		expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
		expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
		expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
		// The right key from the same client is served all the same.
		const { res } = await hit('GET', '/api/me', { headers: { 'x-test-client': 'flooder' } });
		expect(res.status).toBe(200);
	});
});

describe('Host rebinding', () => {
	it.each([
		['another name', 'evil.example'],
		['a name that ends like ours', 'evil.127.0.0.1.example'],
		['a name with a port', 'evil.example:8787']
	])(
		'refuses %s with 421 bad_host and no upstream call, forwarded headers or not',
		async (_, host) => {
			const answer = await callsDuring(async () => {
				const out = await raw(
					`GET /api/me HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Host: 127.0.0.1\r\nX-Overlay-Key: ${OVERLAY_KEY}\r\nConnection: close\r\n\r\n`
				);
				expect(out).toMatch(/^HTTP\/1\.1 421/);
				expect(out).toContain('bad_host');
			});
			expect(answer).toEqual([]);
		}
	);
});

describe('viewer text', () => {
	it('markup in names and messages reaches the page as JSON text, never as HTML', async () => {
		const name = '<img src=x onerror=alert(1)>';
		const message = '<script>alert(document.cookie)</script>\u202E\u200B 👩‍👩‍👧‍👦';
		const created = await api(sim, 'POST', '/tips', {
			body: { name, amount: 5, message, paid: true }
		});
		expect(created.status).toBe(201);
		const { res, text } = await hit('GET', '/api/tts/queue');
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		const tip = JSON.parse(text).items.find(
			(i: { order_id: string }) => i.order_id === created.body.tip.order_id
		);
		expect(tip).toMatchObject({ name, message });
	});
});
