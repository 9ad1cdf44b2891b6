// What the bench's browser scenarios (scenarios.ts, idle.ts) do on the TTS page and the simulator:
// open the page with nothing slowing it down, wait for it to be ready, wait for the simulator to go
// quiet, create a tip.
import type { BenchPage } from './browser.ts';
import { sleep } from './lib.ts';
import type { Stack } from './stack.ts';

// The TTS page with no minimum display time and no configured pause between alerts: what remains
// between two tips is the widget's own overhead.
export const FAST = { min_display: 0, gap: 0, tiers: 'off' };

export async function ttsReady(p: BenchPage): Promise<void> {
	await p.waitFor(
		`document.querySelector('[data-testid=tts-widget]')?.getAttribute('data-status') === 'ready'`
	);
}

/** Waits until the simulator has answered no request for `quietMs` (a page's start-up reads). */
export async function quiet(stack: Stack, quietMs = 500, timeoutMs = 10_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const last = stack.tracker.entries.at(-1)?.t ?? 0;
		const wait = last + quietMs - Date.now();
		if (wait <= 0 || Date.now() > end) return;
		await sleep(wait);
	}
}

export function createTip(stack: Stack, i: number): string {
	return stack.sim.control.createTip({
		name: `Bench ${i}`,
		amount: 1,
		message: `Tip ${i}.`,
		paid: true
	}).order_id;
}
