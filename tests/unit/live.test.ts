// The push channel reader (src/client/live.ts) on a fake token endpoint's WebSocket: one message
// per frame, malformed frames dropped, reconnects, a refused key, the watchdog, the teardown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveChannel, type LiveState } from '../../src/client/live.ts';
import type { LiveMessage } from '../../src/contract/index.ts';

const ORDER = 'tip_1725624000_a1b2c3';

/** One socket to GET /live: the test sends it frames (`send`) and closes it (`end`). */
interface Connection {
	send(text: string): void;
	end(): void;
	/** The page closed it. */
	aborted: boolean;
}

/**
 * A WebSocket class whose n-th socket the endpoint accepts (`stream`) or refuses with a status
 * and `refusal`'s code, as src/server/live/sockets.ts answers a page's auth frame.
 */
function fakeEndpoint(
	answer: (n: number) => 'stream' | number = () => 'stream',
	refusal = '{"code":"bad_overlay_key"}'
) {
	const connections: Connection[] = [];
	const opened = vi.fn();
	class Socket extends EventTarget {
		static readonly CONNECTING = 0;
		static readonly OPEN = 1;
		static readonly CLOSING = 2;
		static readonly CLOSED = 3;
		readyState = 0;
		binaryType = 'blob';
		readonly #kind: 'stream' | number;
		readonly #conn: Connection;

		constructor(readonly url: string) {
			super();
			opened(url);
			this.#kind = answer(connections.length + 1);
			this.#conn = { send: (t) => this.#frame(t), end: () => this.#shut(1000), aborted: false };
			connections.push(this.#conn);
			queueMicrotask(() => {
				this.readyState = 1;
				this.dispatchEvent(new Event('open'));
			});
		}

		/** The page's auth frame: answered open, or refused and closed. */
		send(): void {
			queueMicrotask(() => {
				if (this.#kind === 'stream') return this.#frame('{"type":"open"}');
				const body = JSON.parse(refusal) as object;
				this.#frame(JSON.stringify({ type: 'refused', status: this.#kind, ...body }));
				this.#shut(this.#kind === 401 ? 4401 : 4000);
			});
		}

		close(): void {
			this.#conn.aborted = true;
			this.#shut(1000);
		}

		#frame(data: string): void {
			if (this.readyState === 1) this.dispatchEvent(new MessageEvent('message', { data }));
		}

		#shut(code: number): void {
			if (this.readyState === 3) return;
			this.readyState = 3;
			this.dispatchEvent(Object.assign(new Event('close'), { code, reason: '' }));
		}
	}
	return { Socket, opened, connections };
}

function open(endpoint: ReturnType<typeof fakeEndpoint>) {
	const messages: LiveMessage[] = [];
	const states: LiveState[] = [];
	const warn = vi.fn();
	const refused = vi.fn();
	const live = new LiveChannel({
		api: {
			liveTarget: (path) => ({ url: path, headers: { 'X-Overlay-Key': 'k' } }),
			reportKeyRefused: refused
		},
		WebSocket: endpoint.Socket as never,
		base: () => 'http://localhost/',
		onMessage: (m) => messages.push(m),
		onState: (s) => states.push(s),
		warn,
		random: () => 0.5
	}).start();
	return { live, messages, states, warn, refused };
}

describe('the push channel', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('reads one message per frame, and ignores pings', async () => {
		const endpoint = fakeEndpoint();
		const { live, messages } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		const [c] = endpoint.connections;
		c.send('{"type":"hello"}');
		c.send('{"type":"ping"}');
		await vi.advanceTimersByTimeAsync(0);
		expect(messages).toEqual([{ type: 'hello' }]);
		c.send(`{"type":"decision","order_id":"${ORDER}"}`);
		await vi.advanceTimersByTimeAsync(0);
		expect(messages).toEqual([{ type: 'hello' }, { type: 'decision', order_id: ORDER }]);
		expect(live.state).toBe('open');
		live.close();
	});

	it('drops malformed frames, logging once, and keeps reading', async () => {
		const endpoint = fakeEndpoint();
		const { live, messages, warn } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		const [c] = endpoint.connections;
		c.send('{not json');
		c.send('{"type":"surprise"}');
		c.send('{"type":"rules","version":2}');
		await vi.advanceTimersByTimeAsync(0);
		expect(messages).toEqual([{ type: 'rules', version: 2 }]);
		expect(warn).toHaveBeenCalledTimes(1);
		expect(live.state).toBe('open');
		live.close();
	});

	it('reconnects after the server closes the channel, within the backoff', async () => {
		const endpoint = fakeEndpoint();
		const { live, messages, states } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		endpoint.connections[0].send('{"type":"hello"}');
		endpoint.connections[0].end();
		await vi.advanceTimersByTimeAsync(0);
		expect(live.state).toBe('down');
		// The first retry waits at most 1 s.
		await vi.advanceTimersByTimeAsync(1000);
		expect(endpoint.opened).toHaveBeenCalledTimes(2);
		endpoint.connections[1].send('{"type":"hello"}');
		await vi.advanceTimersByTimeAsync(0);
		expect(messages).toEqual([{ type: 'hello' }, { type: 'hello' }]);
		expect(states).toEqual(['connecting', 'open', 'down', 'connecting', 'open']);
		live.close();
	});

	it('stops on 401: unauthorized, no retry, nothing left running', async () => {
		const endpoint = fakeEndpoint(() => 401);
		const { live } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		expect(live.state).toBe('unauthorized');
		await vi.advanceTimersByTimeAsync(120_000);
		expect(endpoint.opened).toHaveBeenCalledTimes(1);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('tells the page its key was refused, and that a replaced key is final', async () => {
		const wrong = open(fakeEndpoint(() => 401));
		await vi.advanceTimersByTimeAsync(0);
		expect(wrong.refused).toHaveBeenCalledWith({
			error: 'the overlay key was refused',
			final: false
		});
		const body = '{"code":"overlay_key_replaced","error":"replaced by a newer URL"}';
		const replaced = open(fakeEndpoint(() => 401, body));
		await vi.advanceTimersByTimeAsync(0);
		expect(replaced.refused).toHaveBeenCalledWith({
			error: 'replaced by a newer URL',
			final: true
		});
	});

	it('stops on 429 too_many_attempts (a wrong key), not retried on its Retry-After', async () => {
		const endpoint = fakeEndpoint(() => 429, '{"code":"too_many_attempts","error":"wait"}');
		const { live, refused } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		expect(live.state).toBe('unauthorized');
		expect(refused).toHaveBeenCalledTimes(1);
		await vi.advanceTimersByTimeAsync(120_000);
		expect(endpoint.opened).toHaveBeenCalledTimes(1);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('retries after 429 too_many_reads (a read limit for a good key)', async () => {
		const endpoint = fakeEndpoint(
			(n) => (n === 1 ? 429 : 'stream'),
			'{"code":"too_many_reads","error":"slow down"}'
		);
		const { live, refused } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		expect(live.state).toBe('down');
		await vi.advanceTimersByTimeAsync(1000);
		expect(endpoint.opened).toHaveBeenCalledTimes(2);
		expect(live.state).toBe('open');
		expect(refused).not.toHaveBeenCalled();
		live.close();
	});

	it('gives up on a silent connection after 75 s and connects again; pings keep it open', async () => {
		const endpoint = fakeEndpoint();
		const { live } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		const [c] = endpoint.connections;
		// A ping every 25 s: alive.
		for (let i = 0; i < 4; i++) {
			await vi.advanceTimersByTimeAsync(25_000);
			c.send('{"type":"ping"}');
		}
		await vi.advanceTimersByTimeAsync(0);
		expect(c.aborted).toBe(false);
		await vi.advanceTimersByTimeAsync(75_000);
		expect(c.aborted).toBe(true);
		expect(live.state).toBe('down');
		await vi.advanceTimersByTimeAsync(1000);
		expect(endpoint.opened).toHaveBeenCalledTimes(2);
		live.close();
	});

	it('close() ends the connection and leaves no timer', async () => {
		const endpoint = fakeEndpoint();
		const { live } = open(endpoint);
		// reconnecting-websocket's uptime check (minUptime 0) runs 1 ms after the open.
		await vi.advanceTimersByTimeAsync(1);
		// Idle: the watchdog, nothing else.
		expect(vi.getTimerCount()).toBe(1);
		live.close();
		await vi.advanceTimersByTimeAsync(0);
		expect(endpoint.connections[0].aborted).toBe(true);
		expect(vi.getTimerCount()).toBe(0);
		await vi.advanceTimersByTimeAsync(120_000);
		expect(endpoint.opened).toHaveBeenCalledTimes(1);
	});
});
