// Identical reads of one upstream client share calls (src/server/read-flights.ts), and a
// read is never answered by a call sent before it arrived.
import { describe, expect, it } from 'vitest';
import { UpstreamClient } from '../../src/server/upstream.ts';

/** A transport whose answers wait until the test lets them go, numbered in the body. */
function gatedTransport() {
	const sent: { url: string; answer: () => void }[] = [];
	const fetch = (url: string) =>
		new Promise<Response>((resolve) => {
			const n = sent.length + 1;
			sent.push({
				url,
				answer: () =>
					resolve(
						Response.json(
							{ call: n },
							{ headers: { 'RateLimit-Limit': '120', 'RateLimit-Remaining': String(120 - n) } }
						)
					)
			});
		});
	return { sent, fetch };
}

const client = (fetch: (url: string) => Promise<Response>) =>
	new UpstreamClient(() => ({ baseUrl: 'http://up', wsUrl: 'ws://up', apiKey: 'k' }), fetch);

const body = async (res: Promise<Response>) => (await (await res).json()) as { call: number };
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('identical reads of one client', () => {
	it('that arrive before the call is sent share it, each with the whole answer', async () => {
		const t = gatedTransport();
		const up = client(t.fetch);
		const reads = Array.from({ length: 5 }, () => up.call('GET', '/tts/queue'));
		await tick();
		expect(t.sent).toHaveLength(1);
		t.sent[0].answer();
		const answers = await Promise.all(reads);
		for (const res of answers) {
			expect(res.status).toBe(200);
			expect(res.headers.get('RateLimit-Remaining')).toBe('119');
			expect(await res.json()).toEqual({ call: 1 });
		}
	});

	it('that arrive once the call is on its way share the next one, sent after it ends', async () => {
		const t = gatedTransport();
		const up = client(t.fetch);
		const first = up.call('GET', '/tts/queue');
		await tick();
		expect(t.sent).toHaveLength(1);
		// Arrived after the first call left: it may miss what happened meanwhile.
		const later = [up.call('GET', '/tts/queue'), up.call('GET', '/tts/queue')];
		await tick();
		// Not sent while the first is in flight: one follower for both, after it.
		expect(t.sent).toHaveLength(1);
		t.sent[0].answer();
		expect(await body(first)).toEqual({ call: 1 });
		await tick();
		expect(t.sent).toHaveLength(2);
		// A read arriving while the follower is on its way waits for a third call.
		const third = up.call('GET', '/tts/queue');
		t.sent[1].answer();
		expect(await Promise.all(later.map(body))).toEqual([{ call: 2 }, { call: 2 }]);
		await tick();
		t.sent[2].answer();
		expect(await body(third)).toEqual({ call: 3 });
		expect(t.sent).toHaveLength(3);
	});

	it('another path or query, or a write, never shares a call', async () => {
		const t = gatedTransport();
		const up = client(t.fetch);
		const calls = [
			up.call('GET', '/tts/queue'),
			up.call('GET', '/media/queue'),
			up.call('GET', '/tts/history?limit=5'),
			up.call('GET', '/tts/history?limit=6'),
			up.call('POST', '/tts/tip_1/start'),
			up.call('POST', '/tts/tip_1/start')
		];
		await tick();
		expect(t.sent.map((s) => s.url.slice('http://up'.length)).sort()).toEqual([
			'/media/queue',
			'/tts/history?limit=5',
			'/tts/history?limit=6',
			'/tts/queue',
			'/tts/tip_1/start',
			'/tts/tip_1/start'
		]);
		for (const s of t.sent) s.answer();
		await Promise.all(calls);
	});

	it('a call that fails fails every read that shared it; the next read calls again', async () => {
		let calls = 0;
		const up = client(async () => {
			calls += 1;
			throw new Error('connection refused');
		});
		const reads = await Promise.allSettled([up.call('GET', '/me'), up.call('GET', '/me')]);
		expect(reads.map((r) => r.status === 'rejected' && String(r.reason))).toEqual([
			'Error: connection refused',
			'Error: connection refused'
		]);
		expect(calls).toBe(1);
		await expect(up.call('GET', '/me')).rejects.toThrow(/connection refused/);
		expect(calls).toBe(2);
	});
});
