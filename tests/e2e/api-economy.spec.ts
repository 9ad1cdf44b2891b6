// API economy: the upstream calls a TTS page makes are a deterministic budget, so they
// are a test (the bench prints the same figures): exactly a start and a finish per played tip in
// steady state, and a fixed set of calls per (re)connect. Counted in the simulator's log, which
// never sees the token endpoint's own routes (GET /settings, the push channel): a page's reads of
// its stored settings (at start, on the push channel's hello and on a save) are not upstream calls,
// and a save must cost none.
import type { Page } from '@playwright/test';
import { CALLS_PER_CONNECT, CALLS_PER_RECONNECT, BUDGETS } from '../../bench/budgets.ts';
import type { RequestEntry } from '../../src/sim/log.ts';
import { attrOf, eventually, expect, test, type Stack } from './fixtures.ts';

const describe = (calls: RequestEntry[]) => calls.map((e) => `${e.method} ${e.path}`);
/** The call with its order id replaced by `{id}`, e.g. `POST /tts/{id}/start`. */
const shape = (calls: RequestEntry[]) =>
	describe(calls).map((c) => c.replace(/^(\w+ \/tts\/)[^/]+(\/\w+)$/, '$1{id}$2'));

function requestsSince(stack: Stack, seq: number): RequestEntry[] {
	return stack.sim.control.log.requests().filter((e) => e.seq > seq);
}

/** Waits until the simulator answered no request for `ms` (a page's start-up or reconnect reads). */
async function quiet(page: Page, stack: Stack, ms = 1_000): Promise<void> {
	let last = -1;
	await expect
		.poll(
			async () => {
				const seq = stack.sim.control.log.requests().at(-1)?.seq ?? 0;
				const settled = seq === last;
				last = seq;
				return settled;
			},
			{ timeout: 20_000, intervals: [ms] }
		)
		.toBe(true);
	void page;
}

async function connected(page: Page): Promise<void> {
	await expect
		.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
}

test('a TTS page costs a fixed set of calls to connect, then exactly a start and a finish per tip', async ({
	page,
	stack
}) => {
	// The stack's intake read its view before (fixtures.ts): what follows is the page's.
	const start = stack.sim.control.log.lastSeq;
	await page.goto(stack.url('/widget/tts', { min_display: 0, gap: 0 }));
	await connected(page);
	await quiet(page, stack);
	expect(shape(requestsSince(stack, start)).sort()).toEqual([...CALLS_PER_CONNECT].sort());

	const mark = stack.sim.control.log.lastSeq;
	const tips = [1, 2, 3].map((i) =>
		stack.sim.control.createTip({ name: `Thrifty ${i}`, amount: 1, message: `Tip ${i}.` })
	);
	await eventually(() => stack.calls('POST', /^\/tts\/[^/]+\/finish$/).length === 3, 60_000);
	await quiet(page, stack);
	const steady = requestsSince(stack, mark);
	expect(steady).toHaveLength(BUDGETS.callsPerTip * tips.length);
	expect(describe(steady)).toEqual(
		tips.flatMap((t) => [`POST /tts/${t.order_id}/start`, `POST /tts/${t.order_id}/finish`])
	);
});

test('a dropped connection costs a fixed set of calls to come back, and nothing more while idle', async ({
	page,
	stack
}) => {
	// The server's intake (fixtures.ts waited for its reads): its socket drops with the page's, and
	// after its reconnect it reads its view again, as at its start (events are not replayed).
	const intakeReads = shape(requestsSince(stack, 0));
	await page.goto(stack.url('/widget/tts', { min_display: 0, gap: 0 }));
	await connected(page);
	await quiet(page, stack);
	const expected = [...CALLS_PER_RECONNECT, ...intakeReads].sort();
	for (let i = 0; i < 2; i++) {
		const mark = stack.sim.control.log.lastSeq;
		expect(stack.sim.control.dropSockets(0)).toBe(2);
		await eventually(() => requestsSince(stack, mark).length >= expected.length);
		await quiet(page, stack, 1_500);
		expect(shape(requestsSince(stack, mark)).sort()).toEqual(expected);
	}
});

test('a save of the stored settings costs the upstream nothing: the page reads our endpoint', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/tts', { min_display: 0, gap: 0 }));
	await connected(page);
	await quiet(page, stack);
	// GET /settings is the token endpoint's own (the simulator never sees it): counted by the page.
	const reads = () =>
		page.evaluate(
			() =>
				(window as unknown as { __tok: { api: { stats: { byRoute: Record<string, number> } } } })
					.__tok.api.stats.byRoute.settings ?? 0
		);
	const before = await reads();
	const mark = stack.sim.control.log.lastSeq;
	const res = await fetch(`${stack.origin}/control/settings/tts`, {
		method: 'PUT',
		headers: { 'X-Control-Key': stack.controlKey, 'Content-Type': 'application/json' },
		body: JSON.stringify({ values: { look: 'gold' } })
	});
	expect(res.status).toBe(200);
	await expect.poll(reads, { timeout: 5_000 }).toBe(before + 1);
	await quiet(page, stack);
	expect(describe(requestsSince(stack, mark))).toEqual([]);
});
