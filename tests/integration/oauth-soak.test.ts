// Soak (issue "Connect with OAuth", done when): accelerated token expiry (1-second access tokens)
// with concurrent widgets calling through the OAuth connection and holding realtime sockets never
// loses the connection: no failed call, no reuse of a refresh token, no socket closed, and the
// refresh token on disk is always the live one. OAUTH_SOAK_S sets the length (default 20 s;
// OAUTH_SOAK_S=3600 is the hour of the issue).
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { connected, tokenFile } from '../fixtures/oauth-client.ts';
import { RealtimeClient, withSim, type Sim } from '../fixtures/sim.ts';

const SECONDS = Number(process.env.OAUTH_SOAK_S ?? 20);
const WIDGETS = 6;
const CALLS = ['/tts/queue', '/media/queue', '/counters', '/overlays', '/me', '/media/status'];

let sim: Sim | null = null;
afterEach(async () => {
	await sim?.close();
	sim = null;
});

it(
	`${SECONDS} s of 1-second access tokens with ${WIDGETS} concurrent widgets never loses the connection`,
	async () => {
		// Rate limits are not what this measures: lifted so that only the OAuth path can fail.
		sim = await withSim({ perKeyPerMinute: 1e9, perIpPerMinute: 1e9 });
		sim.control.oauth.accessTtlS = 1;
		const file = tokenFile();
		const { upstream, connection } = await connected(sim, { file });
		const s = sim;

		const failures: string[] = [];
		let calls = 0;
		const sockets: RealtimeClient[] = [];
		const end = Date.now() + SECONDS * 1000;
		const widget = async (n: number) => {
			// Each widget holds a realtime socket opened with a handoff token minted through OAuth.
			const minted = await upstream.call('POST', '/realtime/token');
			if (minted.status !== 200) failures.push(`mint ${minted.status}`);
			else {
				const socket = await RealtimeClient.open(s);
				socket.send({ type: 'auth', data: { token: (await minted.json()).token } });
				await socket.next((m) => m.type === 'ready' || m.type === 'error');
				sockets.push(socket);
			}
			let i = n;
			while (Date.now() < end) {
				const path = CALLS[i++ % CALLS.length];
				try {
					const res = await upstream.call('GET', path);
					calls += 1;
					if (res.status !== 200) failures.push(`${path} ${res.status} ${await res.text()}`);
					else await res.arrayBuffer();
				} catch (err) {
					failures.push(`${path} threw ${(err as Error).message}`);
				}
				await new Promise((r) => setTimeout(r, 50 + Math.random() * 150));
			}
		};
		await Promise.all(Array.from({ length: WIDGETS }, (_, n) => widget(n)));

		const [authorization] = s.control.oauth.authorizations.values();
		const summary = {
			seconds: SECONDS,
			calls,
			refreshes: connection.refreshCount,
			failures: failures.length
		};
		console.log(`[oauth soak] ${JSON.stringify(summary)}`);
		expect(failures.slice(0, 5)).toEqual([]);
		// A reused refresh token would have revoked the authorization.
		expect(authorization.revoked).toBeNull();
		expect(s.control.log.oauthEntries('reuse_detected')).toEqual([]);
		// One refresh per token lifetime or so, never one per call: the single flight holds.
		expect(authorization.refreshes).toBe(connection.refreshCount);
		expect(connection.refreshCount).toBeGreaterThanOrEqual(SECONDS / 2);
		expect(connection.refreshCount).toBeLessThan(calls / 2);
		expect(sockets).toHaveLength(WIDGETS);
		expect(sockets.map((c) => c.closeCode)).toEqual(Array(WIDGETS).fill(null));
		const onDisk = JSON.parse(readFileSync(file, 'utf8'));
		expect(onDisk.status).toBe('connected');
		// The stored token is the one the server would accept next.
		const next = await fetch(`${s.oauthUrl}/oauth/token`, {
			method: 'POST',
			body: new URLSearchParams({
				grant_type: 'refresh_token',
				refresh_token: onDisk.refresh_token,
				client_id: authorization.appId
			})
		});
		expect(next.status).toBe(200);
		for (const socket of sockets) socket.close();
	},
	(SECONDS + 60) * 1000
);
