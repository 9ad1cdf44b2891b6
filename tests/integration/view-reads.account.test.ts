// The account (GET /me) kept beside the intake (src/server/intake/account.ts): every page and the
// dock read it, and the token endpoint reads it from the upstream once for the credential in use,
// however many ask at once, and answers the rest with what the upstream answered, costing neither
// the upstream nor the read allowance (nor does that one read, while the intake's socket is open). Another credential (an OAuth Connect or Disconnect, which
// reconnect the intake; a key changed) has it read again, and while the intake's socket is down
// (a revoked key closes it) it goes upstream, as the upstream answers it.
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_LIMITS } from '../../src/core/read-allowance.ts';
import { api, simsPerTest, until } from '../fixtures/sim.ts';
import { simUpstream } from '../fixtures/token-endpoint.ts';
import { dockRead, read, served, serveOn, upstreamCalls } from './view-reads.setup.ts';

const start = simsPerTest();

describe('the account (GET /me)', { timeout: 30_000 }, () => {
	it('is read once for the credential, and every page’s read and the dock’s answered as the upstream would, none refused', async () => {
		const { sim, app } = await served();
		// More pages at once than the address's read allowance would let through.
		const pages = DEFAULT_READ_LIMITS.address.burst + 10;
		const answers = await Promise.all(Array.from({ length: pages }, () => read(app, '/me')));
		for (const a of answers) expect(a.status).toBe(200);
		const later = await Promise.all([read(app, '/me'), dockRead(app, '/me')]);
		expect(upstreamCalls(sim, 'GET', '/me')).toBe(1);

		const upstream = await api(sim, 'GET', '/me');
		for (const a of [...answers, ...later]) {
			expect(a.body).toEqual(upstream.body);
			expect(a.headers.get('content-type')).toBe(upstream.headers.get('content-type'));
		}
	});

	it('is answered when the address has spent its reads before anything was kept: its first read is the kept one', async () => {
		const { sim, app } = await served();
		// Reads the view cannot answer (deeper than it keeps), each going upstream on the allowance.
		const flood = await Promise.all(
			Array.from({ length: DEFAULT_READ_LIMITS.address.burst + 5 }, () =>
				read(app, '/tts/history?limit=50')
			)
		);
		expect(flood.filter((r) => r.status === 429).length).toBeGreaterThan(0);
		const me = await read(app, '/me');
		expect(me.status).toBe(200);
		expect(upstreamCalls(sim, 'GET', '/me')).toBe(1);
		expect(me.body).toEqual((await api(sim, 'GET', '/me')).body);
	});

	it('is read again after a reconnect (a Connect or Disconnect) and for another key', async () => {
		const sim = await start();
		const upstream = simUpstream(sim);
		const app = await serveOn(sim, { upstream });
		const intake = app.intake!;
		await until(() => intake.connected);
		const meReads = () => upstreamCalls(sim, 'GET', '/me');
		await read(app, '/me');
		await read(app, '/me');
		expect(meReads()).toBe(1);

		intake.reconnect();
		expect((await read(app, '/me')).status).toBe(200);
		expect(meReads()).toBe(2);
		await until(() => intake.connected);
		await read(app, '/me');
		expect(meReads()).toBe(2);

		const second = sim.control.addKey({ name: 'Second key' });
		upstream.apiKey = second.value;
		expect((await read(app, '/me')).body.key.name).toBe('Second key');
		expect((await read(app, '/me')).body.key.name).toBe('Second key');
		expect(meReads()).toBe(3);
	});

	it('goes upstream while the intake’s socket is down: a revoked key is refused as the upstream refuses it', async () => {
		const { sim, app } = await served();
		expect((await read(app, '/me')).status).toBe(200);
		sim.control.revokeKey(sim.apiKey);
		await until(() => !app.intake!.connected);
		const refused = await read(app, '/me');
		expect(refused.status).toBe(401);
		expect(refused.body.code).toBe('invalid_api_key');
		expect(upstreamCalls(sim, 'GET', '/me')).toBe(2);
	});
});
