// A page whose key was refused (src/client/key-retry.ts, src/client/api.ts): it checks the key
// again rarely, one cheap GET /settings at a time, and reloads once the key works; a replaced key
// is never checked; 429 too_many_attempts refuses the key like a 401 and is not waited out.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, keyRefusal, type ApiFailure } from '../../src/client/api.ts';
import { keyCheck, keyCheckDelay, KeyRetry, type KeyCheck } from '../../src/client/key-retry.ts';

const MIN = 60_000;

/** A token endpoint answering each call from `answer` (status, body, headers). */
function endpoint(answer: (url: string) => [number, unknown, Record<string, string>?]) {
	const calls: { url: string; headers: Record<string, string> }[] = [];
	const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
		calls.push({ url, headers: init.headers as Record<string, string> });
		const [status, body, headers] = answer(url);
		return new Response(JSON.stringify(body), { status, headers });
	});
	return { fetch, calls };
}

const WRONG = [401, { error: 'missing or wrong overlay key', code: 'bad_overlay_key' }] as const;
const REPLACED = [
	401,
	{ error: 'this overlay URL was replaced by a newer one', code: 'overlay_key_replaced' }
] as const;
const ATTEMPTS = [
	429,
	{ error: 'too many wrong keys; wait a minute', code: 'too_many_attempts' },
	{ 'Retry-After': '30' }
] as const;

/** A page's retry on a fake endpoint: the checks it makes and whether it reloaded. */
function page(answer: (n: number) => readonly [number, unknown, Record<string, string>?]) {
	let n = 0;
	const ep = endpoint(() => {
		const [status, body, headers] = answer(++n);
		return [status, body, headers];
	});
	const api = new ApiClient({ overlayKey: 'k'.repeat(32), fetch: ep.fetch, random: () => 0 });
	const reload = vi.fn();
	const retry = new KeyRetry({ check: keyCheck(api, '/settings'), reload, random: () => 0 });
	api.onKeyRefused((r) => retry.refused(r.final));
	return { api, ep, reload, retry };
}

describe('a refused key', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('is checked about a minute later with GET /settings, then twice as late, up to 15 min', async () => {
		const p = page(() => WRONG);
		await p.api.send('token', 'POST', '/token');
		expect(p.ep.calls).toHaveLength(1);
		// random 0: each wait is its full step: 1, 2, 4, 8, 15, 15 min.
		const steps = [1, 2, 4, 8, 15, 15];
		for (const [i, m] of steps.entries()) {
			await vi.advanceTimersByTimeAsync(m * MIN - 1);
			expect(p.ep.calls).toHaveLength(i + 1);
			await vi.advanceTimersByTimeAsync(1);
			expect(p.ep.calls).toHaveLength(i + 2);
			expect(p.ep.calls[i + 1].url).toBe('/settings');
			expect(p.ep.calls[i + 1].headers['X-Overlay-Key']).toBe('k'.repeat(32));
			// While waiting, one timer and nothing else.
			expect(vi.getTimerCount()).toBe(1);
		}
		expect(p.reload).not.toHaveBeenCalled();
		p.retry.stop();
		expect(vi.getTimerCount()).toBe(0);
	});

	it('reloads the page when a check is answered 2xx (the old key is back)', async () => {
		const p = page((n) => (n < 3 ? WRONG : [200, { revision: 0, targets: {} }]));
		await p.api.send('token', 'POST', '/token');
		await vi.advanceTimersByTimeAsync(MIN);
		expect(p.reload).not.toHaveBeenCalled();
		await vi.advanceTimersByTimeAsync(2 * MIN);
		expect(p.reload).toHaveBeenCalledTimes(1);
		expect(p.ep.calls).toHaveLength(3);
		// Nothing is left running; the reload starts everything again.
		expect(vi.getTimerCount()).toBe(0);
	});

	it('refused many times by the page at once still makes one check at a time', async () => {
		const p = page(() => WRONG);
		await Promise.all([1, 2, 3].map(() => p.api.send('read', 'GET', '/api/tts/queue')));
		expect(vi.getTimerCount()).toBe(1);
		await vi.advanceTimersByTimeAsync(MIN);
		expect(p.ep.calls).toHaveLength(4);
		expect(vi.getTimerCount()).toBe(1);
		p.retry.stop();
	});

	it('is never checked once the streamer replaced it (hosted)', async () => {
		const p = page(() => REPLACED);
		await p.api.send('token', 'POST', '/token');
		expect(vi.getTimerCount()).toBe(0);
		await vi.advanceTimersByTimeAsync(60 * MIN);
		expect(p.ep.calls).toHaveLength(1);
		expect(p.reload).not.toHaveBeenCalled();
	});

	it('stops checking when a check finds it replaced', async () => {
		const p = page((n) => (n === 1 ? WRONG : REPLACED));
		await p.api.send('token', 'POST', '/token');
		await vi.advanceTimersByTimeAsync(MIN);
		expect(p.ep.calls).toHaveLength(2);
		expect(vi.getTimerCount()).toBe(0);
		await vi.advanceTimersByTimeAsync(60 * MIN);
		expect(p.ep.calls).toHaveLength(2);
	});

	it('waits for the next check when a check gets no answer or another 429', async () => {
		let n = 0;
		const answers: (KeyCheck | Error)[] = [new Error('offline'), 'refused', 'works'];
		const reload = vi.fn();
		const retry = new KeyRetry({
			check: async () => {
				const a = answers[n++];
				if (a instanceof Error) throw a;
				return a;
			},
			reload,
			random: () => 0
		});
		retry.refused(false);
		await vi.advanceTimersByTimeAsync(3 * MIN);
		expect(n).toBe(2);
		expect(reload).not.toHaveBeenCalled();
		await vi.advanceTimersByTimeAsync(4 * MIN);
		expect(reload).toHaveBeenCalledTimes(1);
	});

	it('spreads the checks of many sources over the last quarter of each step', () => {
		expect(keyCheckDelay(0, () => 0)).toBe(MIN);
		expect(keyCheckDelay(0, () => 1)).toBe(0.75 * MIN);
		expect(keyCheckDelay(3, () => 0.5)).toBe(8 * MIN * 0.875);
		expect(keyCheckDelay(20, () => 0)).toBe(15 * MIN);
	});
});

describe('429 too_many_attempts', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('refuses the key: a mint stops, and the page checks a minute later, not after Retry-After', async () => {
		const p = page(() => ATTEMPTS);
		const minted = await p.api.mintToken();
		expect(minted).toMatchObject({ ok: false, kind: 'unauthorized', status: 429 });
		// Retry-After said 30 s: nothing then.
		await vi.advanceTimersByTimeAsync(MIN - 1);
		expect(p.ep.calls).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(1);
		expect(p.ep.calls.map((c) => c.url)).toEqual(['/token', '/settings']);
		p.retry.stop();
	});

	it('but 429 too_many_reads is a read limit for a good key: waited out, no refusal', async () => {
		const p = page(() => [
			429,
			{ error: 'too many reads', code: 'too_many_reads' },
			{ 'Retry-After': '5' }
		]);
		const refused = vi.fn();
		p.api.onKeyRefused(refused);
		const minted = await p.api.mintToken();
		expect(minted).toMatchObject({ ok: false, kind: 'http', status: 429 });
		expect(minted.ok || minted.kind !== 'http' ? 0 : minted.retryAfterMs).toBe(5000);
		expect(refused).not.toHaveBeenCalled();
		expect(vi.getTimerCount()).toBe(0);
	});

	it('reads as a refusal of the key, as a 401 does; other codes do not', () => {
		const http = (status: number, code: string): ApiFailure => ({
			ok: false,
			kind: 'http',
			status,
			code,
			body: { code, error: 'x' }
		});
		expect(keyRefusal(http(429, 'too_many_attempts'))).toMatchObject({ final: false });
		expect(keyRefusal(http(401, 'bad_overlay_key'))).toMatchObject({ final: false });
		expect(keyRefusal(http(401, 'bad_control_key'))).toMatchObject({ final: false });
		expect(keyRefusal(http(401, 'control_key_replaced'))).toEqual({ error: 'x', final: true });
		expect(keyRefusal(http(429, 'too_many_reads'))).toBeNull();
		expect(keyRefusal(http(403, 'cross_site'))).toBeNull();
	});
});
