// The dock's key apart from the overlay key (docs/dock.md): every /control call refused without the control key, with no upstream call; the
// control calls never forwarded on /api; the control key no use on /token and /api; a new key
// replaces the old one at once; hosted mode's resolver decides alone.
import { describe, expect, it } from 'vitest';
import { api, readyTip } from '../fixtures/sim.ts';
import { UpstreamClient } from '../../src/server/upstream.ts';
import { OVERLAY_KEY, send, simUpstream } from '../fixtures/token-endpoint.ts';
import { CONTROL_KEY, controlCalls, rig } from './control.setup.ts';

describe('every /control call', () => {
	type Case = { key: string | null; headers?: Record<string, string>; inQuery?: boolean };
	const refused: [string, Case][] = [
		['no key', { key: null }],
		['the overlay key in X-Overlay-Key', { key: null, headers: { 'x-overlay-key': OVERLAY_KEY } }],
		['the overlay key in X-Control-Key', { key: OVERLAY_KEY }],
		['a wrong key', { key: 'wrong-control-key-0123456789' }],
		['the key with one more character', { key: CONTROL_KEY + 'x' }],
		['the key in upper case', { key: CONTROL_KEY.toUpperCase() }],
		['the key only as a bearer token', { key: null, headers: { authorization: CONTROL_KEY } }],
		['the key only in ?key=', { key: null, inQuery: true }]
	];

	it.each(refused)('is refused with 401 bad_control_key and no upstream call: %s', async (_, o) => {
		const r = await rig();
		const tip = await readyTip(r.sim);
		for (const [method, target, body] of controlCalls(tip.order_id)) {
			const url = o.inQuery
				? `${target}${target.includes('?') ? '&' : '?'}key=${CONTROL_KEY}`
				: target;
			// A different client each time: the failed-key limit is tested on its own below.
			const res = await r.dock(method, url, {
				key: o.key,
				headers: o.headers,
				body,
				client: `${method} ${target}`
			});
			expect(res.status, `${method} ${target}`).toBe(401);
			expect(res.body, `${method} ${target}`).toMatchObject({ code: 'bad_control_key' });
		}
		expect(r.calls).toEqual([]);
		// Nothing changed upstream: the tip still waits, nothing is paused or closed.
		const queue = (await api(r.sim, 'GET', '/tts/queue')).body;
		expect(queue.items.map((i: { order_id: string }) => i.order_id)).toEqual([tip.order_id]);
		expect(queue.is_paused).toBe(false);
		expect((await api(r.sim, 'GET', '/tipping')).body.accepting).toBe(true);
	});

	it('is answered with the control key: each call but a new key reaches the upstream', async () => {
		const r = await rig();
		for (const [method, target, body] of controlCalls((await readyTip(r.sim)).order_id)) {
			const before = r.calls.length;
			const res = await r.dock(method, target, { body });
			expect(res.status, `${method} ${target}`).not.toBe(401);
			if (target === '/control/new-key') expect(res.status).toBe(200);
			else expect(r.calls.length, `${method} ${target}`).toBeGreaterThan(before);
		}
	});

	it('counts wrong control keys with wrong overlay keys, and serves both right keys at once', async () => {
		const r = await rig();
		for (let i = 0; i < 5; i++)
			expect((await r.dock('GET', '/control/api/me', { key: 'wrong-key-0123456789' })).status).toBe(
				401
			);
		for (let i = 0; i < 5; i++)
			expect((await send(r.app, 'POST', '/token', { key: 'wrong-key-0123456789' })).status).toBe(
				401
			);
		const blocked = await r.dock('GET', '/control/api/me', { key: 'wrong-key-0123456789' });
		expect(blocked.status).toBe(429);
		expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
		expect((await send(r.app, 'POST', '/token', { key: 'wrong-key-0123456789' })).status).toBe(429);
		// The right keys from the same client: served as if nothing had happened.
		expect((await r.dock('GET', '/control/api/me')).status).toBe(200);
		expect((await r.dock('POST', '/control/actions/tts-pause')).status).toBe(200);
		expect((await send(r.app, 'POST', '/token')).status).toBe(200);
		expect((await r.dock('GET', '/control/api/me', { key: 'wrong-key-0123456789' })).status).toBe(
			429
		);
		// Another client's wrong key is its own first.
		expect(
			(await r.dock('GET', '/control/api/me', { key: 'wrong-key-0123456789', client: 'other' }))
				.status
		).toBe(401);
	});
});

describe('the control calls on /api and the control key elsewhere', () => {
	const CONTROL_ON_API: [string, string, unknown?][] = [
		['POST', '/api/tts/skip'],
		['POST', '/api/media/skip'],
		['POST', '/api/tts/pause'],
		['POST', '/api/tts/resume'],
		['POST', '/api/media/pause'],
		['POST', '/api/media/resume'],
		['POST', '/api/tts/clear'],
		['DELETE', '/api/tts/ORDER'],
		['DELETE', '/api/media/ORDER'],
		['POST', '/api/tts/ORDER/replay'],
		['POST', '/api/media/visibility', { visible: false }],
		['POST', '/api/media/queue', { url: 'https://example.com/a.webm' }],
		['POST', '/api/tipping/open'],
		['POST', '/api/tipping/close'],
		['GET', '/api/tipping']
	];

	it('none of skip, pause, remove, replay, visibility or tipping is forwarded with the overlay key', async () => {
		const r = await rig();
		const tip = await readyTip(r.sim);
		for (const [method, path, body] of CONTROL_ON_API) {
			const target = path.replace('ORDER', tip.order_id);
			const res = await send(r.app, method, target, {
				body: body === undefined ? undefined : JSON.stringify(body),
				headers: { 'x-control-key': CONTROL_KEY }
			});
			expect([404, 405], `${method} ${target}`).toContain(res.status);
		}
		expect(r.calls).toEqual([]);
		expect((await api(r.sim, 'GET', '/tts/queue')).body.items).toHaveLength(1);
	});

	it('the control key opens neither /token nor /api, in either header', async () => {
		const r = await rig();
		for (const [method, target] of [
			['POST', '/token'],
			['GET', '/api/me'],
			['GET', '/api/tts/queue']
		]) {
			for (const o of [
				{ key: CONTROL_KEY },
				{ key: null, headers: { 'x-control-key': CONTROL_KEY } }
			]) {
				const res = await send(r.app, method, target, o);
				expect(res.status, `${method} ${target}`).toBe(401);
				expect(await res.json()).toMatchObject({ code: 'bad_overlay_key' });
			}
		}
		expect(r.calls).toEqual([]);
	});

	it('there is no /control at all without a control key', async () => {
		const r = await rig({ options: { controlKey: undefined } });
		const res = await r.dock('POST', '/control/actions/tts-pause');
		expect(res.status).toBe(404);
		expect(r.calls).toEqual([]);
	});
});

describe('a new control key', () => {
	it('works at once, and the old key is refused from the next request on', async () => {
		const r = await rig();
		const made = await r.dock('POST', '/control/new-key');
		expect(made.status).toBe(200);
		expect(made.headers.get('cache-control')).toBe('no-store');
		const { key } = made.body as { key: string };
		expect(key).not.toBe(CONTROL_KEY);
		expect((await r.dock('GET', '/control/api/me', { key })).status).toBe(200);
		const old = await r.dock('GET', '/control/api/me');
		expect(old.status).toBe(401);
		expect(old.body.code).toBe('bad_control_key');
		expect((await r.dock('POST', '/control/new-key')).status).toBe(401);
		// The overlay key is untouched.
		expect((await send(r.app, 'GET', '/api/me')).status).toBe(200);
	});

	it('is not made when storing it fails: the old key stays in force', async () => {
		const r = await rig({
			options: {
				newControlKey: async () => {
					throw new Error('disk full');
				}
			}
		});
		expect((await r.dock('POST', '/control/new-key')).status).toBe(500);
		expect((await r.dock('GET', '/control/api/me')).status).toBe(200);
	});
});

describe('hosted mode: resolveControl decides', () => {
	const STREAMER_B = 'streamer-b-control-key-0123';

	it('answers 401 control_key_replaced for a replaced key and bad_control_key for none', async () => {
		const replaced = await rig({ options: { resolveControl: async () => ({ replaced: true }) } });
		const res = await replaced.dock('POST', '/control/actions/tts-pause');
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('control_key_replaced');
		const none = await rig({ options: { resolveControl: async () => null } });
		expect((await none.dock('POST', '/control/actions/tts-pause')).body.code).toBe(
			'bad_control_key'
		);
		expect([...replaced.calls, ...none.calls]).toEqual([]);
	});

	it("acts with the resolved streamer's upstream and nothing else opens it", async () => {
		const other = await rig();
		const hosted = await rig({
			options: {
				controlKey: undefined,
				resolveControl: async (c) =>
					c.req.header('x-control-key') === STREAMER_B
						? { streamer: 'b', upstream: new UpstreamClient(() => simUpstream(other.sim)) }
						: null
			}
		});
		expect((await hosted.dock('POST', '/control/actions/tts-pause')).status).toBe(401);
		const paused = await hosted.dock('POST', '/control/actions/tts-pause', { key: STREAMER_B });
		expect(paused.body).toMatchObject({ outcome: 'done' });
		expect((await api(other.sim, 'GET', '/tts/queue')).body.is_paused).toBe(true);
		expect((await api(hosted.sim, 'GET', '/tts/queue')).body.is_paused).toBe(false);
		// Hosted keys are made on the dashboard, not here.
		expect((await hosted.dock('POST', '/control/new-key', { key: STREAMER_B })).status).toBe(404);
	});
});

describe('GET /control/session', () => {
	it('is a 404 in single mode', async () => {
		const r = await rig();
		expect((await r.dock('GET', '/control/session')).status).toBe(404);
	});

	it("answers the signed-in session's CSRF token, or 401 without a session", async () => {
		const r = await rig({
			options: {
				resolveControl: async () => null,
				sessionCsrf: async (c) => (c.req.header('cookie') === 'session=s1' ? 'csrf-token-1' : null)
			}
		});
		const signedIn = await r.dock('GET', '/control/session', {
			key: null,
			headers: { cookie: 'session=s1' }
		});
		expect(signedIn.status).toBe(200);
		expect(signedIn.body).toEqual({ csrf: 'csrf-token-1' });
		expect(signedIn.headers.get('cache-control')).toBe('no-store');
		const anonymous = await r.dock('GET', '/control/session', { key: null });
		expect(anonymous.status).toBe(401);
	});
});
