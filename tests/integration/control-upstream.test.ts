// The dock's calls when the upstream cannot or will not do them (docs/dock.md, answers of an
// action): unreachable or failing is 502 upstream_unavailable ("try again"), its rate limit a 429
// with Retry-After, a scope the credential lacks a 403 naming it; and the dock's token and reads.
import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/contract/index.ts';
import { freePort } from '../fixtures/ports.ts';
import { RealtimeClient, readyTip, type Sim } from '../fixtures/sim.ts';
import { simUpstream } from '../fixtures/token-endpoint.ts';
import { playingTip, rig, upstreamState } from './control.setup.ts';

/** A key of the simulator with every scope but one. */
const without = (scope: Scope) => (sim: Sim) =>
	simUpstream(sim, sim.control.addKey({ scopes: SCOPES.filter((s) => s !== scope) }).value);

const UNAVAILABLE = {
	error: 'the upstream could not be reached: try again',
	code: 'upstream_unavailable'
};

describe('an upstream that cannot or will not answer', () => {
	it('unreachable: 502 upstream_unavailable to an action, a read and the token', async () => {
		const port = await freePort();
		const r = await rig({
			upstream: (sim) => ({
				baseUrl: `http://127.0.0.1:${port}/v1`,
				wsUrl: 'ws://unused',
				apiKey: sim.apiKey
			})
		});
		for (const [method, target] of [
			['POST', '/control/actions/tts-pause'],
			['POST', '/control/actions/tts-skip'],
			['GET', '/control/api/tts/queue'],
			['POST', '/control/token']
		]) {
			const res = await r.dock(method, target, {
				body: target.endsWith('skip') ? { order_id: 'tip_1_abc' } : undefined
			});
			expect(res.status, target).toBe(502);
			expect(res.body, target).toEqual(UNAVAILABLE);
		}
		expect(r.calls).toHaveLength(4);
	});

	it('failing (5xx): an action answers 502 upstream_unavailable and the next press works', async () => {
		const r = await rig();
		r.sim.control.failHttp({ status: 502, count: 1, match: '/tts/' });
		const res = await r.act('tts-pause');
		expect(res.status).toBe(502);
		expect(res.body).toEqual(UNAVAILABLE);
		expect((await r.act('tts-pause')).body.outcome).toBe('done');
	});

	it("its rate limit: 429 rate_limited with Retry-After from the upstream's reset", async () => {
		const r = await rig();
		r.sim.control.failHttp({ status: 429, count: 1 });
		const res = await r.act('tipping-close');
		expect(res.status).toBe(429);
		expect(res.body.code).toBe('rate_limited');
		expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
		expect((await upstreamState(r.sim, 'tts')).queue.is_paused).toBe(false);
	});
});

describe('a credential that lacks a scope', () => {
	it.each([
		['tts-pause', 'tts:control'],
		['media-hide', 'media:control'],
		['tipping-close', 'tipping:control']
	] as const)('%s answers 403 missing_scope naming %s', async (action, scope) => {
		const r = await rig({ upstream: without(scope) });
		const res = await r.act(action);
		expect(res.status).toBe(403);
		expect(res.body).toMatchObject({ code: 'missing_scope', required_scope: scope });
		expect(res.body.error).toContain(scope);
	});

	it('a skip without tts:control reads the queue, is refused, and the tip plays on', async () => {
		const r = await rig({ upstream: without('tts:control') });
		const playing = await playingTip(r.sim);
		const res = await r.act('tts-skip', playing);
		expect(res.status).toBe(403);
		expect(res.body.required_scope).toBe('tts:control');
		expect((await upstreamState(r.sim, 'tts')).queue.current_order_id).toBe(playing);
	});

	it("a read passes the upstream's 403 as it was sent", async () => {
		const r = await rig({ upstream: without('media:read') });
		const res = await r.dock('GET', '/control/api/media/history');
		expect(res.status).toBe(403);
		expect(res.body).toMatchObject({ code: 'missing_scope', required_scope: 'media:read' });
	});
});

describe("the dock's token and reads", () => {
	it('POST /control/token mints a handoff token that opens the realtime socket', async () => {
		const r = await rig();
		const res = await r.dock('POST', '/control/token');
		expect(res.status).toBe(200);
		expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'token', 'ws_url']);
		expect(res.body.ws_url).toBe(r.sim.wsUrl);
		const rt = await RealtimeClient.open(r.sim);
		try {
			rt.send({ type: 'auth', data: { token: res.body.token } });
			expect((await rt.next((m) => m.type === 'ready' || m.type === 'error')).type).toBe('ready');
		} finally {
			rt.close();
		}
	});

	it('each read answers the upstream status, body and RateLimit headers', async () => {
		const r = await rig();
		await readyTip(r.sim);
		for (const path of [
			'/me',
			'/tts/queue',
			'/tts/history',
			'/media/queue',
			'/media/history',
			'/tipping',
			// The settings editor's page lists the overlays.
			'/overlays'
		]) {
			const res = await r.dock('GET', `/control/api${path}`);
			expect(res.status, path).toBe(200);
			expect(res.headers.get('ratelimit-remaining'), path).toMatch(/^\d+$/);
		}
		expect((await r.dock('GET', '/control/api/tts/queue')).body.items).toHaveLength(1);
	});

	it('a history read forwards limit and before, and only those', async () => {
		const r = await rig();
		await r.dock('GET', '/control/api/tts/history?limit=3&secret=x');
		expect(r.calls).toEqual(['GET /tts/history?limit=3']);
	});

	it('anything else is 404 not_forwarded, with no upstream call', async () => {
		const r = await rig();
		for (const [method, target] of [
			['GET', '/control/api/counters/deaths'],
			['GET', '/control/api/overlays/o_1a2b3c4d'],
			['GET', '/control/api/media/status'],
			['GET', '/control/api/events'],
			['POST', '/control/api/tts/queue'],
			['POST', '/control/api/tts/skip'],
			['DELETE', '/control/api/tts/tip_1_abc'],
			['GET', '/control/api/tts/tip_1_abc/../queue']
		]) {
			const res = await r.dock(method, target);
			expect([404, 400], `${method} ${target}`).toContain(res.status);
			if (res.status === 404) expect(res.body.code, target).toBe('not_forwarded');
		}
		expect(r.calls).toEqual([]);
	});
});
