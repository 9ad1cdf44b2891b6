// The simulator with several streamers (the hosted bench's upstream): each authorization acts on
// its streamer's account only: its identity, its queues, its events.
import { describe, expect, it } from 'vitest';
import { authorizeRequest, pkce, REDIRECT, registerApp, tokenCall } from '../fixtures/oauth.ts';
import { api, RealtimeClient, simsPerTest, until, type Sim } from '../fixtures/sim.ts';

const start = simsPerTest();

/** The whole flow, approved on the consent page as `tenant`. */
async function connectAs(sim: Sim, clientId: string, tenant: string): Promise<string> {
	const { verifier, challenge } = pkce();
	const page = await authorizeRequest(sim, {
		response_type: 'code',
		client_id: clientId,
		redirect_uri: REDIRECT,
		code_challenge: challenge,
		code_challenge_method: 'S256'
	});
	const requestId = /name="request_id" value="([^"]+)"/.exec(await page.text())![1];
	const decided = await fetch(`${sim.oauthUrl}/oauth/authorize`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sim.origin },
		body: new URLSearchParams({ request_id: requestId, decision: 'approve', tenant })
	});
	const code = new URL(decided.headers.get('location')!).searchParams.get('code')!;
	const tokens = await tokenCall(sim, {
		grant_type: 'authorization_code',
		code,
		redirect_uri: REDIRECT,
		code_verifier: verifier,
		client_id: clientId
	});
	return tokens.body.access_token as string;
}

describe('a simulator with several streamers', () => {
	it('each streamer’s authorization sees their own account, queue and events', async () => {
		const sim = await start();
		for (const id of ['tn_a', 'tn_b'])
			sim.control.core.addTenant({ id, name: id, currency: 'EUR', currency_symbol: '€' });
		const { clientId } = registerApp(sim, { secret: null });
		const a = await connectAs(sim, clientId, 'tn_a');
		const b = await connectAs(sim, clientId, 'tn_b');
		// One app, two streamers: the second sign-in does not replace the first.
		expect((await api(sim, 'GET', '/me', { key: a })).body.tenant.id).toBe('tn_a');
		expect((await api(sim, 'GET', '/me', { key: b })).body.tenant.id).toBe('tn_b');

		const socketB = await RealtimeClient.connect(sim, b);
		const tip = sim.control.createTip({ name: 'Viewer', amount: 3, message: 'for a' }, 'tn_a');
		await until(() => sim.control.core.tenant('tn_a')!.tts.find(tip.order_id)?.tts_url != null);
		expect((await api(sim, 'GET', '/tts/queue', { key: a })).body.items).toHaveLength(1);
		expect((await api(sim, 'GET', '/tts/queue', { key: b })).body.items).toHaveLength(0);
		expect((await api(sim, 'GET', '/tts/queue')).body.items).toHaveLength(0);
		expect((await api(sim, 'POST', `/tts/${tip.order_id}/start`, { key: b })).status).toBe(404);
		expect((await api(sim, 'POST', `/tts/${tip.order_id}/start`, { key: a })).status).toBe(200);
		// B's socket hears B's tips, and nothing of A's.
		const own = sim.control.createTip({ name: 'Viewer', amount: 4, message: 'for b' }, 'tn_b');
		await until(() => socketB.events().some((e) => JSON.stringify(e).includes(own.order_id)));
		expect(socketB.events().filter((e) => JSON.stringify(e).includes(tip.order_id))).toEqual([]);
		socketB.ws.close();
		expect(
			(
				await fetch(`${sim.oauthUrl}/oauth/authorize`, {
					method: 'POST',
					headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sim.origin },
					body: new URLSearchParams({ request_id: 'x', decision: 'approve', tenant: 'tn_nobody' })
				})
			).status
		).toBe(400);
	});
});
