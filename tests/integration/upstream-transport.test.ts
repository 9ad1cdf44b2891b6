// The server's upstream transport (keepAliveFetch) under a burst: the calls share a bounded set of
// keep-alive connections instead of opening one each, so a refresh storm or a restarted instance
// does not flood the upstream's accept queue (whose overflow the kernel drops: calls then fail at
// their deadline while the upstream idles).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { keepAliveFetch, UPSTREAM_MAX_SOCKETS } from '../../src/server/upstream.ts';

let server: Server | null = null;
afterEach(async () => {
	server?.closeAllConnections();
	await new Promise((r) => server?.close(r));
	server = null;
});

/**
 * An upstream that answers after `delayMs`, or holds every answer until `release()` (null), and
 * counts the connections it accepted.
 */
async function slowUpstream(delayMs: number | null) {
	const seen = { connections: 0, open: 0, mostOpen: 0 };
	let release!: () => void;
	const released = new Promise<void>((r) => (release = r));
	server = createServer((req, res) => {
		const answer = () => res.end(JSON.stringify({ path: req.url }));
		if (delayMs === null) void released.then(answer);
		else setTimeout(answer, delayMs);
	});
	server.on('connection', (socket) => {
		seen.connections += 1;
		seen.open += 1;
		seen.mostOpen = Math.max(seen.mostOpen, seen.open);
		socket.on('close', () => (seen.open -= 1));
	});
	await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	return { seen, url: `http://127.0.0.1:${port}`, release };
}

describe('upstream transport', () => {
	it('a burst of calls shares at most UPSTREAM_MAX_SOCKETS connections, and every call is answered', async () => {
		const { seen, url } = await slowUpstream(30);
		const send = keepAliveFetch();
		try {
			const calls = 4 * UPSTREAM_MAX_SOCKETS;
			const answers = await Promise.all(
				Array.from({ length: calls }, (_, i) =>
					send(`${url}/tts/queue?i=${i}`, { signal: AbortSignal.timeout(10_000) }).then(
						async (r) => ({ status: r.status, body: (await r.json()) as { path: string } })
					)
				)
			);
			expect(answers.map((a) => a.status)).toEqual(Array(calls).fill(200));
			// Each answer is its own call's.
			expect(answers.map((a) => a.body.path)).toEqual(
				Array.from({ length: calls }, (_, i) => `/tts/queue?i=${i}`)
			);
			expect(seen.connections).toBeLessThanOrEqual(UPSTREAM_MAX_SOCKETS);
			expect(seen.mostOpen).toBeLessThanOrEqual(UPSTREAM_MAX_SOCKETS);
		} finally {
			send.close();
		}
	});

	it('a call waiting for a connection ends at its own deadline, and the others still go', async () => {
		const { url, release } = await slowUpstream(null);
		const send = keepAliveFetch();
		try {
			let answered = 0;
			const busy = Promise.all(
				Array.from({ length: UPSTREAM_MAX_SOCKETS }, () =>
					send(`${url}/busy`).then((r) => ((answered += 1), r))
				)
			);
			busy.catch(() => {});
			const late = send(`${url}/late`, { signal: AbortSignal.timeout(100) });
			await expect(late).rejects.toThrow(/abort|timeout/i);
			// It gave up at its deadline while every connection was still taken.
			expect(answered).toBe(0);
			release();
			expect((await busy).every((r) => r.status === 200)).toBe(true);
			expect((await send(`${url}/after`)).status).toBe(200);
		} finally {
			send.close();
		}
	});
});
