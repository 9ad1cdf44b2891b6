import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	backoffDelay,
	MAX_RESET_MS,
	RATE_LIMIT_JITTER_MS,
	retryAfterMs,
	type Jitter
} from '../../src/core/backoff.ts';

const fixed = (r: number) => () => r;
const headers = (h: Record<string, string>) => new Headers(h);

describe('backoffDelay', () => {
	it('doubles from baseMs per attempt up to maxMs without jitter', () => {
		const o = { baseMs: 100, maxMs: 1000, jitter: 'none' as const };
		expect([0, 1, 2, 3, 4, 5, 50].map((n) => backoffDelay(n, o))).toEqual([
			100, 200, 400, 800, 1000, 1000, 1000
		]);
	});

	it('full jitter spreads the delay over [0, cap]', () => {
		const o = { baseMs: 100, maxMs: 1000, jitter: 'full' as const };
		expect(backoffDelay(2, { ...o, random: fixed(0) })).toBe(0);
		expect(backoffDelay(2, { ...o, random: fixed(0.5) })).toBe(200);
		expect(backoffDelay(2, { ...o, random: fixed(0.999) })).toBeLessThan(400);
	});

	it('equal jitter (the default) keeps at least half of the cap', () => {
		const o = { baseMs: 100, maxMs: 1000 };
		expect(backoffDelay(2, { ...o, random: fixed(0) })).toBe(200);
		expect(backoffDelay(2, { ...o, random: fixed(1) })).toBe(400);
	});

	it('a negative, fractional or NaN attempt counts sensibly', () => {
		const o = { baseMs: 100, maxMs: 1000, jitter: 'none' as const };
		expect(backoffDelay(-3, o)).toBe(100);
		expect(backoffDelay(Number.NaN, o)).toBe(100);
		expect(backoffDelay(1.9, o)).toBe(200);
		expect(backoffDelay(Infinity, o)).toBe(1000);
		expect(backoffDelay(1e9, { ...o, baseMs: 0 })).toBe(0);
	});

	it('a random source outside [0, 1) cannot push the delay out of range', () => {
		const o = { baseMs: 100, maxMs: 1000, jitter: 'full' as const };
		expect(backoffDelay(3, { ...o, random: fixed(7) })).toBe(800);
		expect(backoffDelay(3, { ...o, random: fixed(-1) })).toBe(0);
		expect(backoffDelay(3, { ...o, random: fixed(Number.NaN) })).toBe(0);
	});

	it('never exceeds maxMs and is never negative, whatever the inputs', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.integer({ min: -10, max: 10_000 }), fc.double()),
				fc.double({ min: 0, max: 1e7, noNaN: true }),
				fc.double({ min: 0, max: 1e7, noNaN: true }),
				fc.constantFrom<Jitter>('full', 'equal', 'none'),
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				(attempt, baseMs, maxMs, jitter, r) => {
					const d = backoffDelay(attempt, { baseMs, maxMs, jitter, random: () => r });
					expect(Number.isFinite(d)).toBe(true);
					expect(d).toBeGreaterThanOrEqual(0);
					expect(d).toBeLessThanOrEqual(maxMs);
				}
			)
		);
	});

	it('the cap never shrinks as attempts grow', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 100 }),
				fc.integer({ min: 1, max: 10_000 }),
				fc.integer({ min: 1, max: 1_000_000 }),
				(attempt, baseMs, maxMs) => {
					const o = { baseMs, maxMs, jitter: 'none' as const };
					expect(backoffDelay(attempt + 1, o)).toBeGreaterThanOrEqual(backoffDelay(attempt, o));
				}
			)
		);
	});
});

describe('retryAfterMs', () => {
	it('waits RateLimit-Reset seconds plus up to a second of jitter', () => {
		expect(retryAfterMs(headers({ 'RateLimit-Reset': '7' }), 0, fixed(0))).toBe(7000);
		expect(retryAfterMs(headers({ 'RateLimit-Reset': '7' }), 0, fixed(0.5))).toBe(7500);
		// The reset alone decides, however many 429s came before.
		expect(retryAfterMs(headers({ 'RateLimit-Reset': '7' }), 9, fixed(0))).toBe(7000);
	});

	it('reads the header case-insensitively through Headers and through a plain lookup', () => {
		expect(retryAfterMs(headers({ 'ratelimit-reset': '2' }), 0, fixed(0))).toBe(2000);
		const lookup = (name: string) => (name === 'RateLimit-Reset' ? '3' : null);
		expect(retryAfterMs(lookup, 0, fixed(0))).toBe(3000);
	});

	it('a reset of 0 still waits a little jitter, not a hot retry', () => {
		expect(retryAfterMs(headers({ 'RateLimit-Reset': '0' }), 0, fixed(0.25))).toBe(250);
	});

	it('falls back to Retry-After in seconds (the token endpoint sends it for wrong keys)', () => {
		expect(retryAfterMs(headers({ 'Retry-After': '42' }), 0, fixed(0))).toBe(42_000);
		expect(
			retryAfterMs(headers({ 'Retry-After': '42', 'RateLimit-Reset': '5' }), 0, fixed(0))
		).toBe(5000);
	});

	it('without a usable header backs off exponentially from 1 s to 60 s', () => {
		const waits = [0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => retryAfterMs(headers({}), n, fixed(0)));
		expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
		expect(retryAfterMs(headers({ 'RateLimit-Reset': 'soon' }), 0, fixed(0))).toBe(1000);
		expect(
			retryAfterMs(headers({ 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' }), 1, fixed(0))
		).toBe(2000);
	});

	it('a reset absurdly far away is capped', () => {
		expect(retryAfterMs(headers({ 'RateLimit-Reset': '99999999' }), 0, fixed(0))).toBe(
			MAX_RESET_MS
		);
	});

	it('is never negative and never beyond the cap plus jitter', () => {
		fc.assert(
			fc.property(
				fc.option(fc.oneof(fc.nat().map(String), fc.string()), { nil: undefined }),
				fc.integer({ min: 0, max: 1000 }),
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				(reset, attempt, r) => {
					const h = headers(reset === undefined ? {} : { 'RateLimit-Reset': reset });
					const wait = retryAfterMs(h, attempt, () => r);
					expect(wait).toBeGreaterThanOrEqual(0);
					expect(wait).toBeLessThanOrEqual(MAX_RESET_MS + RATE_LIMIT_JITTER_MS);
				}
			)
		);
	});
});
