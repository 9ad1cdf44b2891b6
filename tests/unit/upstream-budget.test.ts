// The budgets' shell (src/server/upstream-budget.ts): held calls go at the reset, claims first; a
// call that would wait longer than its page is answered 429 here; what /healthz and /metrics read.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callPriority, UpstreamBudget } from '../../src/server/upstream-budget.ts';

const answer = (status: number, limit: number, remaining: number, resetS: number) =>
	new Response('{}', {
		status,
		headers: {
			'RateLimit-Limit': String(limit),
			'RateLimit-Remaining': String(remaining),
			'RateLimit-Reset': String(resetS)
		}
	});
const POLICY = { perIp: 240, perAuthorization: 10, reserve: 0.2, claimShare: 0, windowMs: 60_000 };

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

describe('the upstream budget of a process', () => {
	it('tells claims (start, finish, release) and the dock’s controls from reads', () => {
		expect(callPriority('POST', '/tts/tip_1_abc/start')).toBe('claim');
		expect(callPriority('POST', '/tts/tip_1_abc/finish')).toBe('claim');
		expect(callPriority('POST', '/media/md_1_abc/release')).toBe('claim');
		expect(callPriority('POST', '/tts/skip')).toBe('claim');
		expect(callPriority('DELETE', '/tts/tip_1_abc')).toBe('claim');
		expect(callPriority('POST', '/media/visibility')).toBe('claim');
		expect(callPriority('POST', '/tipping/open')).toBe('claim');
		expect(callPriority('GET', '/tts/queue')).toBe('read');
		expect(callPriority('GET', '/tts/history?limit=5')).toBe('read');
		expect(callPriority('POST', '/realtime/token')).toBe('read');
	});

	it('sends nothing while a budget is spent, then lets claims go before reads at its reset', async () => {
		const budget = new UpstreamBudget({ policy: POLICY, maxWaitMs: 5000 });
		budget.observe('oa_a', answer(200, 10, 0, 2));
		const order: string[] = [];
		const held = [
			['read 1', budget.admit('oa_a', 'read')],
			['claim', budget.admit('oa_a', 'claim')],
			['read 2', budget.admit('oa_a', 'read')]
		] as const;
		for (const [name, slot] of held)
			void Promise.resolve(slot).then((s) => order.push(`${name}:${s.ok}`));
		await vi.advanceTimersByTimeAsync(1999);
		expect(order).toEqual([]);
		expect(budget.budgetSnapshot()).toMatchObject({ queued: { claims: 1, reads: 2 }, held: 3 });
		await vi.advanceTimersByTimeAsync(1);
		expect(order).toEqual(['claim:true', 'read 1:true', 'read 2:true']);
		expect(budget.budgetSnapshot().queued).toEqual({ claims: 0, reads: 0 });
	});

	it('while only the reserve is left, reads wait and claims go at once', async () => {
		const budget = new UpstreamBudget({ policy: POLICY, maxWaitMs: 5000 });
		budget.observe('oa_a', answer(200, 10, 2, 3));
		expect(budget.admit('oa_a', 'claim')).toMatchObject({ ok: true });
		const read = budget.admit('oa_a', 'read');
		expect(read).toBeInstanceOf(Promise);
		expect(budget.budgetSnapshot()).toMatchObject({ saturated: true, queued: { reads: 1 } });
		await vi.advanceTimersByTimeAsync(3000);
		expect(await read).toMatchObject({ ok: true });
	});

	it('a call that would wait longer than its page is answered 429 here, with the reset', async () => {
		const budget = new UpstreamBudget({ policy: POLICY, maxWaitMs: 5000 });
		budget.observe('oa_a', answer(429, 10, 0, 42));
		const slot = budget.admit('oa_a', 'claim');
		if (slot instanceof Promise || slot.ok) throw new Error('expected a refusal');
		expect(slot.response.status).toBe(429);
		expect(slot.response.headers.get('RateLimit-Reset')).toBe('42');
		expect(slot.response.headers.get('RateLimit-Limit')).toBe('10');
		expect(Object.keys(await slot.response.json())).toEqual(['error']);
		// Other streamers are not held back by this authorization's budget.
		expect(budget.admit('oa_b', 'read')).toMatchObject({ ok: true });
		expect(budget.budgetSnapshot()).toMatchObject({
			refusedHere: 1,
			upstream429: 1,
			authorizations: { spent: 1 }
		});
	});

	it('reads of every streamer keep to what the calling address leaves them, claims never wait', async () => {
		// 40 a minute per address: 4 kept, 20 for claims, 16 for everyone's reads.
		const policy = { ...POLICY, perIp: 40, perAuthorization: 1000, reserve: 0.1, claimShare: 0.5 };
		const budget = new UpstreamBudget({ policy, maxWaitMs: 5000 });
		for (let i = 0; i < 16; i++)
			expect(budget.admit(`oa_${i}`, 'read')).toMatchObject({ ok: true });
		const held = budget.admit('oa_y', 'read');
		expect(held).toBeInstanceOf(Promise);
		for (let i = 0; i < 20; i++) expect(budget.admit('oa_y', 'claim')).toMatchObject({ ok: true });
		expect(budget.budgetSnapshot()).toMatchObject({
			queued: { reads: 1, claims: 0 },
			address: { limit: 40, readCeiling: 16, reads: 16, claims: 20, heldReads: 1 }
		});
		// Within a second it is told to come back (a page's reads go in line with its claims).
		await vi.advanceTimersByTimeAsync(1000);
		const slot = await held;
		if (slot.ok) throw new Error('expected a refusal');
		expect(slot.response.status).toBe(429);
		expect(slot.response.headers.get('RateLimit-Limit')).toBe('40');
		// A minute after the reads, the window has room again.
		await vi.advanceTimersByTimeAsync(59_000);
		expect(budget.admit('oa_y', 'read')).toMatchObject({ ok: true });
	});
});
