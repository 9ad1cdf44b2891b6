// A private product stack per test: the simulator and the token endpoint (serving the built dist/)
// on ephemeral ports inside the test process, so tests in parallel never share a queue, and the test
// steers the simulator and reads its log directly (the only way to observe in Chromium 103).
import { test as base, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VIEW_PARTS } from '../../src/core/view/parts.ts';
import { FileActivityStore } from '../../src/server/activity/file-store.ts';
import { ActivityRecorder } from '../../src/server/activity/recorder.ts';
import { DEFAULT_RETENTION_DAYS } from '../../src/server/activity/store.ts';
import { serveApp } from '../../src/server/serve.ts';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.ts';
import type { RequestEntry } from '../../src/sim/log.ts';
import { checkSettings } from '../fixtures/settings.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));

export const OVERLAY_KEY = 'e2e_stack_overlay_key_42';

/** The dock's control key of the stack's token endpoint (X-Control-Key on /control). */
export const CONTROL_KEY = 'e2e_stack_control_key_42';

export interface Stack {
	sim: RunningSimulator;
	/** The token endpoint's origin (what OBS loads). */
	origin: string;
	key: string;
	/** The control key: what the dock sends to skip, pause, remove, replay, hide or close. */
	controlKey: string;
	/** A page URL with the overlay key and extra parameters. */
	url(path: string, params?: Record<string, string | number>): string;
	/** API calls the simulator answered, e.g. `calls('POST', /^\/tts\/.+\/start$/)`. */
	calls(method: string, path: RegExp): RequestEntry[];
}

export const test = base.extend<{ stack: Stack }>({
	stack: async ({}, use) => {
		const sim = await startSimulator({ quiet: true, audioDelayMs: 50 });
		// The Activity's day files, as `npm start` keeps them, in a folder of the test's own.
		const activityDir = mkdtempSync(join(tmpdir(), 'tok-e2e-activity-'));
		const activity = new ActivityRecorder({
			store: new FileActivityStore({ dir: activityDir }),
			retentionDays: DEFAULT_RETENTION_DAYS
		});
		const served = await serveApp({
			mode: 'demo',
			upstream: { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey },
			overlayKey: OVERLAY_KEY,
			controlKey: CONTROL_KEY,
			dist,
			simulatorOrigin: sim.origin,
			checkSettings,
			activity
		});
		// The server's own intake reads every part of its live view as it connects: done before the
		// test starts, so what a test counts in the simulator's log from then on is its pages'.
		await eventually(() => VIEW_PARTS.every((part) => served.intake?.view.sure(part)));
		await use({
			sim,
			origin: served.origin,
			key: OVERLAY_KEY,
			controlKey: CONTROL_KEY,
			url: (path, params = {}) => {
				const q = new URLSearchParams({ key: OVERLAY_KEY });
				for (const [k, v] of Object.entries(params)) q.set(k, String(v));
				return `${served.origin}${path}?${q}`;
			},
			calls: (method, path) => sim.control.log.requests({ method, path })
		});
		await served.close();
		await sim.close();
		rmSync(activityDir, { recursive: true, force: true });
	}
});

export { expect };

/** Waits until `check` holds, polling the test process's own state (the simulator's log). */
export async function eventually(check: () => boolean, timeoutMs = 20_000): Promise<void> {
	await expect.poll(check, { timeout: timeoutMs, intervals: [50, 100, 200] }).toBe(true);
}

// Playwright's locator assertions may call Element.checkVisibility, which Chromium 103 (OBS 30)
// lacks; these read the DOM through evaluate instead, so they work in every engine.

/** The text of the first element matching `selector` ('' when absent). */
export function textOf(page: Page, selector: string): Promise<string> {
	return page.evaluate((sel) => document.querySelector(sel)?.textContent ?? '', selector);
}

/** An attribute of the first element matching `selector` (null when absent). */
export function attrOf(page: Page, selector: string, name: string): Promise<string | null> {
	return page.evaluate(([sel, attr]) => document.querySelector(sel)?.getAttribute(attr) ?? null, [
		selector,
		name
	] as const);
}

/**
 * Counts the page's requestAnimationFrame callbacks from its first script on (call before goto):
 * `frames(page)` reads the count, so a test can check that an idle page runs none.
 */
export async function countFrames(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const w = window as unknown as { __rafCalls: number };
		w.__rafCalls = 0;
		const raf = window.requestAnimationFrame.bind(window);
		window.requestAnimationFrame = (cb) =>
			raf((t) => {
				w.__rafCalls += 1;
				cb(t);
			});
	});
}

/** Animation frames the page has run since it loaded (countFrames). */
export function frames(page: Page): Promise<number> {
	return page.evaluate(() => (window as unknown as { __rafCalls: number }).__rafCalls);
}

/**
 * Waits until what moved has ended: `count` (frames run so far, `frames(page)` by default) stays
 * the same over a quarter of a second. A test of idleness then checks that nothing runs after.
 */
export async function untilStill(
	count: Page | (() => Promise<number>),
	timeoutMs = REACT_MS
): Promise<void> {
	const read = typeof count === 'function' ? count : () => frames(count);
	let last = -1;
	await expect
		.poll(
			async () => {
				const now = await read();
				const still = now === last;
				last = now;
				return still;
			},
			{ timeout: timeoutMs, intervals: [250] }
		)
		.toBe(true);
}

/**
 * How long a test waits for a widget to react to an event. Generous on purpose: the reaction
 * budget (well under a second) is a timing, measured by `npm run bench`, not asserted in tests,
 * where a loaded CI machine would make it flaky.
 */
export const REACT_MS = 5_000;
