// Wrong keys never lock the streamer out. Every OBS source reaches the token endpoint from one
// address (127.0.0.1), so sources that still carry an old key share it with the ones that carry the
// right key. Here four sources with old keys (a TTS widget, an overlay page, the counters and a dock)
// and the test process itself, knocking with wrong keys on every keyed route all through the test,
// keep this address over the limit of wrong keys (FailureLimiter in src/server/security.ts), while
// a TTS source and the dock with the right keys are served as if nothing happened: a tip starts
// within seconds and is read to its end once, a press in the dock takes effect, and neither page
// is ever answered 429 too_many_attempts. The delay from a tip's creation to its start is noted
// here; `npm run bench:lockout` measures it.
import type { Page } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import { knock, knocks, lockedOut, type Knocking, type OldKeys } from '../fixtures/wrong-keys.ts';
import {
	BUTTON,
	control,
	dockUrl,
	fast,
	outcome,
	press,
	ttsFinishesOf,
	ttsStartsOf,
	watchPlayback
} from './dock.helpers.ts';
import { attrOf, eventually, expect, REACT_MS, test, type Stack } from './fixtures.ts';

/** Keys the stack no longer has, of the right format. */
const OLD: OldKeys = { overlay: 'e2e_stack_overlay_key_41', control: 'e2e_stack_control_key_41' };

/** How long a tip may take from creation to start: a few seconds, far below the minute locked. */
const START_MS = 5_000;

/**
 * The token endpoint's answers to a page that are 429 too_many_attempts, as `METHOD /path`: over
 * HTTP, and in the push channel's refusal (a WebSocket frame, src/server/live/sockets.ts).
 */
function lockoutsOf(page: Page, stack: Stack): string[] {
	const seen: string[] = [];
	page.on('response', async (res) => {
		if (res.status() !== 429 || !res.url().startsWith(stack.origin)) return;
		const body = (await res.json().catch(() => null)) as { code?: unknown } | null;
		if (body?.code === 'too_many_attempts')
			seen.push(`${res.request().method()} ${new URL(res.url()).pathname}`);
	});
	page.on('websocket', (ws) =>
		ws.on('framereceived', ({ payload }) => {
			if (String(payload).includes('too_many_attempts'))
				seen.push(`WS ${new URL(ws.url()).pathname}`);
		})
	);
	return seen;
}

/** How often the token endpoint refused a page's key (401 or 429, over HTTP or its push channel). */
function refusalsOf(page: Page, stack: Stack): { count: number } {
	const refused = { count: 0 };
	page.on('response', (res) => {
		if (res.url().startsWith(stack.origin) && [401, 429].includes(res.status())) refused.count++;
	});
	page.on('websocket', (ws) =>
		ws.on('framereceived', ({ payload }) => {
			if (String(payload).includes('"refused"')) refused.count++;
		})
	);
	return refused;
}

/**
 * Waits until `check` holds, as `eventually` does, but fails at once, naming them, as soon as the
 * right-key pages were locked out: waiting longer would only hide why.
 */
async function whileServed(
	lockouts: () => string[],
	check: () => Promise<boolean>,
	what: string,
	timeoutMs = 20_000
): Promise<void> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		expect(lockouts(), `the right keys were answered 429 too_many_attempts (${what})`).toEqual([]);
		if (await check()) return;
		if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
		await sleep(100);
	}
}

/** The stack, and the test process knocking on it with wrong keys from the start to the end. */
const knocked = test.extend<{ knocking: Knocking }>({
	knocking: async ({ stack }, use) => {
		const knocking = knock(stack.origin, OLD);
		await use(knocking);
		await knocking.stop();
	}
});

knocked(
	'sources with old keys never lock out a TTS source and the dock that carry the right keys',
	async ({ page, stack, knocking }) => {
		test.setTimeout(90_000);
		// The address is over the limit of wrong keys before any source opens.
		await eventually(() => knocking.answers.some(lockedOut), REACT_MS);

		// Four sources with old keys, each a page of the same browser, as OBS runs them.
		const context = page.context();
		const old = {
			tts: stack.url('/widget/tts', { ...fast, key: OLD.overlay }),
			overlay: stack.url('/overlay/o_1a2b3c4d', { key: OLD.overlay }),
			counters: stack.url('/widget/counters', { key: OLD.overlay }),
			dock: dockUrl(stack, OLD.control)
		};
		const refused: Record<string, { count: number }> = {};
		for (const [name, url] of Object.entries(old)) {
			const source = await context.newPage();
			refused[name] = refusalsOf(source, stack);
			await source.goto(url);
		}

		// The TTS source and the dock with the right keys.
		const tts = await context.newPage();
		const ttsLockouts = lockoutsOf(tts, stack);
		const dockLockouts = lockoutsOf(page, stack);
		const lockouts = () => [
			...ttsLockouts.map((a) => `TTS source: ${a}`),
			...dockLockouts.map((a) => `dock: ${a}`)
		];
		const served = (check: () => Promise<boolean>, what: string, timeoutMs?: number) =>
			whileServed(lockouts, check, what, timeoutMs);
		await watchPlayback(tts);
		await tts.goto(stack.url('/widget/tts', fast));
		await page.goto(dockUrl(stack));
		await served(
			async () =>
				(await attrOf(tts, '[data-testid=tts-widget]', 'data-status')) === 'ready' &&
				(await attrOf(page, '[data-testid=dock]', 'data-connection')) === 'open',
			'the TTS source is ready and the dock connected'
		);

		// A tip starts within seconds, and is read to its end once.
		const created = Date.now();
		const tip = stack.sim.control.createTip({
			name: 'Viewer',
			amount: 5,
			message: 'Hi!',
			paid: true
		});
		await served(
			async () => ttsStartsOf(stack, tip.order_id).length > 0,
			'the tip starts',
			START_MS
		);
		const delay = ttsStartsOf(stack, tip.order_id)[0].t - created;
		test.info().annotations.push({ type: 'tip creation to start', description: `${delay} ms` });
		expect(delay).toBeLessThan(START_MS);
		await served(
			async () => ttsFinishesOf(stack, tip.order_id).length === 1,
			'the tip is read to its end',
			30_000
		);
		expect(ttsStartsOf(stack, tip.order_id)).toHaveLength(1);

		// A press in the dock takes effect: Pause holds the simulator's TTS queue, Resume frees it.
		await press(page, BUTTON.control('tts-pause'));
		await served(async () => stack.sim.control.model.tts.paused, 'Pause takes effect', REACT_MS);
		await expect.poll(() => control(page, 'tts-pause')).toBe('Paused · Resume');
		expect(await outcome(page, 'tts-pause')).toBe('done: TTS queue paused');
		await press(page, BUTTON.control('tts-pause'));
		await served(async () => !stack.sim.control.model.tts.paused, 'Resume takes effect', REACT_MS);
		await expect.poll(() => control(page, 'tts-pause')).toBe('Running · Pause');

		// The address was over the limit all along: wrong keys were still refused for it at the end.
		expect(knocking.answers.filter(lockedOut).length).toBeGreaterThan(knocks(OLD).length);
		expect(knocking.answers.slice(-3 * knocks(OLD).length).some(lockedOut)).toBe(true);
		// The old-key sources knocked too.
		for (const [name, { count }] of Object.entries(refused))
			expect(count, `the ${name} source with an old key was refused`).toBeGreaterThan(0);
		expect(lockouts()).toEqual([]);
	}
);
