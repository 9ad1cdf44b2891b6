// The push channel reader (src/client/live.ts) on a fake token endpoint: lines split across
// chunks, malformed lines dropped, reconnects, a refused key, the watchdog, the teardown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveChannel, type LiveState } from '../../src/client/live.ts';
import type { LiveMessage } from '../../src/contract/index.ts';

const ORDER = 'tip_1725624000_a1b2c3';
const enc = new TextEncoder();

/** One answer of GET /live: a stream the test writes to (`send`) and ends (`end`). */
interface Connection {
	send(text: string): void;
	end(): void;
	aborted: boolean;
}

function fakeEndpoint(
	answer: (n: number) => 'stream' | number = () => 'stream',
	refusal = '{"code":"bad_overlay_key"}'
) {
	const connections: Connection[] = [];
	const openStream = vi.fn(async (_name: string, _path: string, signal: AbortSignal) => {
		const kind = answer(connections.length + 1);
		let controller!: ReadableStreamDefaultController<Uint8Array>;
		const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
		const conn: Connection = {
			send: (text) => controller.enqueue(enc.encode(text)),
			end: () => controller.close(),
			aborted: false
		};
		signal.addEventListener('abort', () => (conn.aborted = true));
		connections.push(conn);
		if (kind !== 'stream') return new Response(refusal, { status: kind });
		return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
	});
	return { openStream, connections };
}

function open(endpoint: ReturnType<typeof fakeEndpoint>) {
	const messages: LiveMessage[] = [];
	const states: LiveState[] = [];
	const warn = vi.fn();
	const refused = vi.fn();
	const live = new LiveChannel({
		api: { openStream: endpoint.openStream, reportKeyRefused: refused },
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

	it('reads data lines split across chunks, and ignores pings and blank lines', async () => {
		const endpoint = fakeEndpoint();
		const { live, messages } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		const [c] = endpoint.connections;
		c.send('data: {"ty');
		c.send('pe":"hello"}\n\n: ping\n\nda');
		await vi.advanceTimersByTimeAsync(0);
		expect(messages).toEqual([{ type: 'hello' }]);
		c.send(`ta: {"type":"decision","order_id":"${ORDER}"}\r\n\r\n`);
		await vi.advanceTimersByTimeAsync(0);
		expect(messages).toEqual([{ type: 'hello' }, { type: 'decision', order_id: ORDER }]);
		expect(live.state).toBe('open');
		live.close();
	});

	it('drops malformed lines, logging once, and keeps reading', async () => {
		const endpoint = fakeEndpoint();
		const { live, messages, warn } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		const [c] = endpoint.connections;
		c.send('data: {not json\ndata: {"type":"surprise"}\ndata: {"type":"rules","version":2}\n');
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
		endpoint.connections[0].send('data: {"type":"hello"}\n');
		endpoint.connections[0].end();
		await vi.advanceTimersByTimeAsync(0);
		expect(live.state).toBe('down');
		// The first retry waits at most 1 s.
		await vi.advanceTimersByTimeAsync(1000);
		expect(endpoint.openStream).toHaveBeenCalledTimes(2);
		endpoint.connections[1].send('data: {"type":"hello"}\n');
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
		expect(endpoint.openStream).toHaveBeenCalledTimes(1);
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
		expect(endpoint.openStream).toHaveBeenCalledTimes(1);
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
		expect(endpoint.openStream).toHaveBeenCalledTimes(2);
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
			c.send(': ping\n\n');
		}
		await vi.advanceTimersByTimeAsync(0);
		expect(c.aborted).toBe(false);
		await vi.advanceTimersByTimeAsync(75_000);
		expect(c.aborted).toBe(true);
		expect(live.state).toBe('down');
		await vi.advanceTimersByTimeAsync(1000);
		expect(endpoint.openStream).toHaveBeenCalledTimes(2);
		live.close();
	});

	it('close() ends the connection and leaves no timer', async () => {
		const endpoint = fakeEndpoint();
		const { live } = open(endpoint);
		await vi.advanceTimersByTimeAsync(0);
		// Idle: the pending read and the watchdog, nothing else.
		expect(vi.getTimerCount()).toBe(1);
		live.close();
		await vi.advanceTimersByTimeAsync(0);
		expect(endpoint.connections[0].aborted).toBe(true);
		expect(vi.getTimerCount()).toBe(0);
		await vi.advanceTimersByTimeAsync(120_000);
		expect(endpoint.openStream).toHaveBeenCalledTimes(1);
	});
});
