// A real crash (SIGKILL) of the token endpoint between receiving a rotated refresh token and storing
// it: the restarted endpoint must end in a clear "reconnect" state and never present the old token.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { UpstreamClient } from '../../src/server/upstream.ts';
import { connected, newConnection, tokenFile } from '../fixtures/oauth-client.ts';
import { withSim, type Sim } from '../fixtures/sim.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let sim: Sim | null = null;
afterEach(async () => {
	await sim?.close();
	sim = null;
});

it('a token endpoint killed inside the store window restarts into "reconnect" without reusing the token', async () => {
	sim = await withSim();
	const file = tokenFile();
	const { clientId } = await connected(sim, { file });
	const before = JSON.parse(readFileSync(file, 'utf8'));

	const child = spawn(
		process.execPath,
		['--import', 'tsx', 'tests/fixtures/oauth-crash-child.ts'],
		{
			cwd: root,
			env: {
				...process.env,
				OAUTH_URL: sim.oauthUrl,
				BASE_URL: sim.baseUrl,
				CLIENT_ID: clientId,
				TOKEN_FILE: file
			},
			stdio: ['ignore', 'pipe', 'pipe']
		}
	);
	let out = '';
	child.stdout.on('data', (d) => (out += d));
	const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
		child.on('exit', (_code, sig) => resolve(sig))
	);
	expect(signal).toBe('SIGKILL');
	expect(out).toBe('received\n');
	// The upstream rotated: the token on disk is dead, and the file says a refresh was in flight.
	expect(sim.control.log.oauthEntries('refresh_token')).toHaveLength(1);
	const onDisk = JSON.parse(readFileSync(file, 'utf8'));
	expect(onDisk.status).toBe('refreshing');
	expect(onDisk.refresh_token).toBe(before.refresh_token);

	const restarted = newConnection(sim, clientId, { file });
	const status = await restarted.status();
	expect(status.state).toBe('revoked');
	expect(status.reason).toMatch(/stopped in the middle of a token refresh.*reconnect/);
	const upstream = new UpstreamClient(
		() => ({ baseUrl: sim!.baseUrl, wsUrl: sim!.wsUrl, apiKey: '' }),
		fetch,
		10_000,
		restarted
	);
	const res = await upstream.call('GET', '/tts/queue');
	expect(res.status).toBe(401);
	expect((await res.json()).code).toBe('oauth_revoked');
	expect(sim.control.log.oauthEntries('reuse_detected')).toEqual([]);
	expect(sim.control.log.oauthEntries('refresh_rejected')).toEqual([]);
	expect(JSON.parse(readFileSync(file, 'utf8')).refresh_token).toBeNull();
}, 30_000);
