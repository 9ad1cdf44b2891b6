// The calls the list widgets (recent events, top supporters) make through the token endpoint: the
// played histories and the leaderboard are forwarded with only the query their schema allows, and
// neither the API key nor the overlay key comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, withSim, type Sim } from '../fixtures/sim.ts';
import { OVERLAY_KEY, send, simUpstream, tokenEndpoint } from '../fixtures/token-endpoint.ts';

let sim: Sim;

beforeAll(async () => {
	sim = await withSim({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
	for (let i = 0; i < 4; i++)
		sim.control.createTip({ name: `Fan ${i}`, amount: 10 * (i + 1), paid: true });
});
afterAll(() => sim.close());

describe('the list widgets through the token endpoint', () => {
	it.each([
		['/leaderboard', 'supporters'],
		['/tts/history', 'tips'],
		['/media/history', 'media']
	])('forwards %s with its limit and answers as the upstream does', async (path, field) => {
		const { app, calls } = tokenEndpoint(simUpstream(sim));
		const res = await send(app, 'GET', `/api${path}?limit=2`);
		expect(res.status).toBe(200);
		const body = await res.json();
		expect(body).toEqual((await api(sim, 'GET', `${path}?limit=2`)).body);
		expect(body[field].length).toBeLessThanOrEqual(2);
		expect(calls).toEqual([`GET ${path}?limit=2`]);
	});

	it('the leaderboard lists the paid tips, biggest supporter first', async () => {
		const { app } = tokenEndpoint(simUpstream(sim));
		const body = await (await send(app, 'GET', '/api/leaderboard?limit=1')).json();
		expect(body.supporters).toEqual([expect.objectContaining({ name: 'Fan 3', total: 40 })]);
	});

	it('drops query parameters the route does not take', async () => {
		const { app, calls } = tokenEndpoint(simUpstream(sim));
		const res = await send(app, 'GET', '/api/leaderboard?limit=3&api_key=x&scope=all');
		expect(res.status).toBe(200);
		expect(calls).toEqual(['GET /leaderboard?limit=3']);
	});

	it.each(['limit=0', 'limit=101', 'limit=lots', 'limit=2.5'])(
		'refuses ?%s without calling the upstream',
		async (query) => {
			const { app, calls } = tokenEndpoint(simUpstream(sim));
			const res = await send(app, 'GET', `/api/tts/history?${query}`);
			expect(res.status).toBe(400);
			expect(calls).toEqual([]);
		}
	);

	it('a cursor is forwarded encoded, never as a path or a second parameter', async () => {
		const { app, calls } = tokenEndpoint(simUpstream(sim));
		await send(app, 'GET', '/api/tts/history?before=' + encodeURIComponent('x&limit=100/../me'));
		expect(calls).toEqual(['GET /tts/history?before=x%26limit%3D100%2F..%2Fme']);
	});

	it('does not forward writes on these paths, nor other segments under them', async () => {
		const { app, calls } = tokenEndpoint(simUpstream(sim));
		expect((await send(app, 'POST', '/api/leaderboard')).status).toBe(405);
		expect((await send(app, 'GET', '/api/leaderboard/extra')).status).toBe(404);
		expect((await send(app, 'GET', '/api/tts/history/..%2Fqueue')).status).toBeGreaterThanOrEqual(
			400
		);
		expect(calls).toEqual([]);
	});

	it('a call without the overlay key is refused, and no key comes back', async () => {
		const { app, calls } = tokenEndpoint(simUpstream(sim));
		const refused = await send(app, 'GET', '/api/leaderboard', { key: null });
		expect(refused.status).toBe(401);
		expect(calls).toEqual([]);
		for (const res of [refused, await send(app, 'GET', '/api/tts/history?limit=5')]) {
			const text = await res.text();
			for (const secret of [sim.apiKey, OVERLAY_KEY]) {
				expect(text).not.toContain(secret);
				for (const [, value] of res.headers) expect(value).not.toContain(secret);
			}
		}
	});
});
