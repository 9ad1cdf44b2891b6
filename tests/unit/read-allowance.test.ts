// What a reader may read through the token endpoint (src/core/read-allowance.ts): normal
// pages never meet the allowance, a flood of three reads every 1.5 s is cut, a flood from one
// address leaves the key's other readers theirs, and a refusal says how long to wait.
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_LIMITS, ReadAllowance } from '../../src/core/read-allowance.ts';

/** Reads of `key` from `address` at these times (ms): how many were allowed. */
function allowed(a: ReadAllowance, key: string, address: string, times: number[]): number {
	return times.filter((t) => a.take(key, address, t).ok).length;
}

const every = (ms: number, until: number, from = 0) =>
	Array.from({ length: Math.floor((until - from) / ms) }, (_, i) => from + i * ms);

describe('the read allowance', () => {
	it('six full overlays connecting at once, then a read every 2 s, are never refused', () => {
		const a = new ReadAllowance();
		expect(allowed(a, 's_1', 'obs', Array(60).fill(0))).toBe(60);
		const steady = every(2000, 600_000, 2000);
		expect(allowed(a, 's_1', 'obs', steady)).toBe(steady.length);
	});

	it('the issue’s flood (three reads every 1.5 s) gets a quarter through once its burst is spent', () => {
		const a = new ReadAllowance();
		const flood = every(1500, 600_000).flatMap((t) => [t, t, t]);
		const through = allowed(a, 's_1', 'flood', flood);
		// 60 at once, then half a read a second: 30 a minute of the flood's 120, over 10 minutes.
		expect(flood).toHaveLength(1200);
		expect(through).toBeGreaterThanOrEqual(355);
		expect(through).toBeLessThanOrEqual(360);
	});

	it('a flood from one address leaves the key’s sources at another address their reads', () => {
		const a = new ReadAllowance();
		let obsRefused = 0;
		for (const t of every(500, 300_000)) {
			a.take('s_1', 'flood', t);
			if (t % 4000 === 0 && !a.take('s_1', 'obs', t).ok) obsRefused += 1;
		}
		expect(obsRefused).toBe(0);
		// Other streamers are not touched at all.
		expect(a.take('s_2', 'flood', 300_000).ok).toBe(true);
	});

	it('refuses with the whole seconds until a read is allowed again, naming the allowance', () => {
		const a = new ReadAllowance({ key: { burst: 3, perS: 1 }, address: { burst: 2, perS: 0.25 } });
		expect(allowed(a, 'k', 'x', [0, 0])).toBe(2);
		expect(a.take('k', 'x', 0)).toEqual({ ok: false, by: 'address', retryAfterS: 4 });
		expect(a.take('k', 'y', 0)).toEqual({ ok: true });
		expect(a.take('k', 'z', 0)).toEqual({ ok: false, by: 'key', retryAfterS: 1 });
		// A refused read costs nothing: a second later the key has one again.
		expect(a.take('k', 'z', 1000)).toEqual({ ok: true });
	});

	it('the defaults: an address’s allowance inside its key’s', () => {
		const { key, address } = DEFAULT_READ_LIMITS;
		expect(address.burst).toBeLessThan(key.burst);
		expect(address.perS).toBeLessThan(key.perS);
	});
});
