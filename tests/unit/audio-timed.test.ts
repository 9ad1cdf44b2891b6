// TimedAudioPort, the sound-card-free AudioPort of the node tests, against a tiny loopback HTTP
// server: it ends after the WAV's real duration and fails where a browser would (HTTP errors,
// bytes that are not audio, a download that never finishes). Timings are asserted loosely.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioError } from '../../src/client/audio-port.ts';
import { TimedAudioPort, wavDurationSeconds } from '../../src/client/audio-timed.ts';
import { encodeWav } from '../../src/sim/audio.ts';

const RATE = 8_000;
const wav = (seconds: number) => encodeWav(new Int16Array(Math.round(seconds * RATE)), RATE);

const hits = new Map<string, number>();
let server: Server;
let origin: string;

beforeAll(async () => {
	server = createServer((req, res) => {
		const path = req.url ?? '/';
		hits.set(path, (hits.get(path) ?? 0) + 1);
		if (path === '/short.wav' || path === '/preloaded.wav' || path === '/stop.wav') {
			res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav(0.4));
		} else if (path === '/long.wav') {
			res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav(5));
		} else if (path === '/garbage.wav') {
			res.writeHead(200, { 'content-type': 'audio/wav' }).end('this is not audio');
		} else if (path === '/flaky.wav' && hits.get(path) === 1) {
			res.writeHead(502).end();
		} else if (path === '/flaky.wav') {
			res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav(0.1));
		} else if (path === '/hang.wav') {
			res.writeHead(200, { 'content-type': 'audio/wav' });
			res.write(wav(1).subarray(0, 100)); // headers and a few bytes, then nothing
		} else {
			res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such audio"}');
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

async function rejection(promise: Promise<unknown>): Promise<AudioError> {
	try {
		await promise;
	} catch (err) {
		expect(err).toBeInstanceOf(AudioError);
		return err as AudioError;
	}
	throw new Error('resolved instead of rejecting');
}

describe('TimedAudioPort', () => {
	it('plays a WAV for about its duration: started, then ended', async () => {
		const port = new TimedAudioPort();
		const order: string[] = [];
		const t0 = Date.now();
		const handle = port.play(`${origin}/short.wav`, { volume: 1 });
		void handle.started.then((s) => order.push(`started:${s}`));
		const outcome = await handle.done.then((o) => (order.push(o), o));
		const elapsed = Date.now() - t0;
		expect(outcome).toBe('ended');
		expect(order).toEqual(['started:true', 'ended']);
		expect(handle.duration()).toBeCloseTo(0.4, 3);
		expect(handle.position()).toBeCloseTo(0.4, 3);
		expect(elapsed).toBeGreaterThanOrEqual(380);
		expect(elapsed).toBeLessThan(3_000);
	});

	it('reports its position while playing', async () => {
		const port = new TimedAudioPort();
		const handle = port.play(`${origin}/long.wav`, { volume: 1 });
		expect(handle.duration()).toBeNull();
		await handle.started;
		await new Promise((r) => setTimeout(r, 150));
		expect(handle.duration()).toBe(5);
		expect(handle.position()).toBeGreaterThan(0.05);
		expect(handle.position()).toBeLessThan(5);
		handle.stop();
		await expect(handle.done).resolves.toBe('stopped');
	});

	it('stop() ends a playback early with stopped', async () => {
		const port = new TimedAudioPort();
		const handle = port.play(`${origin}/stop.wav`, { volume: 1 });
		await handle.started;
		handle.stop();
		handle.stop(); // twice is harmless
		await expect(handle.done).resolves.toBe('stopped');
	});

	it('stop() before the download finished resolves stopped and never starts', async () => {
		const port = new TimedAudioPort();
		const handle = port.play(`${origin}/long.wav`, { volume: 1 });
		handle.stop();
		await expect(handle.done).resolves.toBe('stopped');
		await expect(handle.started).resolves.toBe(false);
	});

	it('rejects on 404 with the status, and never reports a start', async () => {
		const port = new TimedAudioPort();
		const handle = port.play(`${origin}/missing.wav`, { volume: 1 });
		const err = await rejection(handle.done);
		expect(err.reason).toBe('load');
		expect(err.message).toContain('404');
		await expect(handle.started).resolves.toBe(false);
	});

	it('rejects bytes that are not a WAV file', async () => {
		const port = new TimedAudioPort();
		const err = await rejection(port.play(`${origin}/garbage.wav`, { volume: 1 }).done);
		expect(err.reason).toBe('decode');
		expect(err.message).toContain('not a WAV');
	});

	it('a download that never finishes fails with stall instead of holding the queue', async () => {
		const port = new TimedAudioPort({ stallTimeoutMs: 200 });
		const err = await rejection(port.play(`${origin}/hang.wav`, { volume: 1 }).done);
		expect(err.reason).toBe('stall');
	});

	it('a preloaded URL is fetched once and played from memory', async () => {
		const port = new TimedAudioPort();
		port.preload(`${origin}/preloaded.wav`);
		port.preload(`${origin}/preloaded.wav`); // idempotent
		await expect(port.play(`${origin}/preloaded.wav`, { volume: 1 }).done).resolves.toBe('ended');
		expect(hits.get('/preloaded.wav')).toBe(1);
	});

	it('a failed preload is not cached: the next play fetches again', async () => {
		const port = new TimedAudioPort();
		port.preload(`${origin}/flaky.wav`);
		const first = await rejection(port.play(`${origin}/flaky.wav`, { volume: 1 }).done);
		expect(first.message).toContain('502');
		await expect(port.play(`${origin}/flaky.wav`, { volume: 1 }).done).resolves.toBe('ended');
		expect(hits.get('/flaky.wav')).toBe(2);
	});

	it('a time scale below 1 plays faster (for long scenarios)', async () => {
		const port = new TimedAudioPort({ timeScale: 0.05 });
		const t0 = Date.now();
		await expect(port.play(`${origin}/long.wav`, { volume: 1 }).done).resolves.toBe('ended');
		expect(Date.now() - t0).toBeLessThan(2_000);
	});

	it('is always unlocked', () => {
		const port = new TimedAudioPort();
		expect(port.unlocked).toBe(true);
		expect(typeof port.onUnlockChange(() => {})).toBe('function');
	});
});

describe('wavDurationSeconds', () => {
	it('reads the length from the header', () => {
		expect(wavDurationSeconds(wav(1.25))).toBeCloseTo(1.25, 6);
	});

	it('counts only the bytes present when a streamed header claims ~4 GB', () => {
		const bytes = wav(0.5);
		new DataView(bytes.buffer).setUint32(40, 0xffffffff, true);
		expect(wavDurationSeconds(bytes)).toBeCloseTo(0.5, 6);
	});

	it('refuses anything that is not RIFF/WAVE', () => {
		expect(() => wavDurationSeconds(new TextEncoder().encode('this is not audio'))).toThrow(
			AudioError
		);
		expect(() => wavDurationSeconds(new Uint8Array(0))).toThrow(/not a WAV/);
	});
});
