// Real headless Chromium for the bench: the system Chromium (or CHROMIUM_PATH), driven by
// Playwright, observed through the Chrome DevTools Protocol (task time, heap, DOM nodes) and a small
// init script (animation frames requested, when each <audio> really started and ended).
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { readFileSync, readdirSync } from 'node:fs';
import { chromiumArgs, systemChromium } from '../tests/e2e/engines.ts';

export const CHROMIUM_PATH = systemChromium;

/** Installed before any page script: counts rAF requests and times every media element's playback. */
const INIT_SCRIPT = `(() => {
	const bench = (window.__bench = { frames: 0, audio: [] });
	const raf = window.requestAnimationFrame;
	window.requestAnimationFrame = function (cb) {
		bench.frames++;
		return raf.call(window, cb);
	};
	const now = () => performance.timeOrigin + performance.now();
	const watched = new WeakSet();
	const play = HTMLMediaElement.prototype.play;
	HTMLMediaElement.prototype.play = function () {
		if (!watched.has(this)) {
			watched.add(this);
			this.addEventListener('playing', () => bench.audio.push({ kind: 'playing', src: this.currentSrc, t: now() }));
			this.addEventListener('ended', () => bench.audio.push({ kind: 'ended', src: this.currentSrc, t: now() }));
		}
		return play.apply(this, arguments);
	};
})();`;

export interface AudioMark {
	kind: 'playing' | 'ended';
	src: string;
	/** Epoch ms (same clock as the simulator's log). */
	t: number;
}

export interface BenchBrowser {
	browser: Browser;
	/** The browser's main process (its children are the renderers, GPU and utility processes). */
	pid: number | null;
	version: string;
	close(): Promise<void>;
}

function childPids(ppid: number): number[] {
	const out: number[] = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[1]) === ppid) out.push(Number(name));
		} catch {
			// gone
		}
	}
	return out;
}

/** utime + stime in clock ticks of a process and all its descendants (Linux /proc). */
export function treeCpuTicks(pid: number): number {
	let total = 0;
	const todo = [pid];
	while (todo.length) {
		const p = todo.pop()!;
		try {
			const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
			const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			// After the command: state(0) ppid(1) ... utime(11) stime(12)
			total += Number(f[11]) + Number(f[12]);
		} catch {
			continue;
		}
		todo.push(...childPids(p));
	}
	return total;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ); 100 on every Linux in practice. */
export const CLOCK_TICKS = 100;

export async function launch(): Promise<BenchBrowser> {
	const before = new Set(childPids(process.pid));
	const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...chromiumArgs] });
	const fresh = childPids(process.pid).filter((p) => !before.has(p));
	return {
		browser,
		pid: fresh.length === 1 ? fresh[0] : null,
		version: browser.version(),
		close: () => browser.close()
	};
}

export interface BenchPage {
	page: Page;
	cdp: CDPSession;
	/** CDP Performance metrics by name (TaskDuration in s, JSHeapUsedSize in bytes, Nodes, ...). */
	metrics(): Promise<Record<string, number>>;
	/** JS heap in use after a full garbage collection (bytes). */
	heapAfterGc(): Promise<number>;
	/** DOM nodes in the page after a full garbage collection. */
	domNodesAfterGc(): Promise<number>;
	frames(): Promise<number>;
	/** Audio marks recorded since the last call. */
	takeAudio(): Promise<AudioMark[]>;
	/** Resolves when `expression` is truthy in the page (polled every 50 ms), throws after `timeoutMs`. */
	waitFor(expression: string, timeoutMs?: number): Promise<void>;
	close(): Promise<void>;
}

export async function openPage(b: BenchBrowser): Promise<BenchPage> {
	const context = await b.browser.newContext();
	const page = await context.newPage();
	await page.addInitScript(INIT_SCRIPT);
	const cdp = await context.newCDPSession(page);
	await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
	const metrics = async () => {
		const { metrics } = await cdp.send('Performance.getMetrics');
		return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
	};
	// Page reads go through plain CDP, not page.evaluate or waitForFunction: those install
	// Playwright's utility and injected scripts in the page's heap (about 0.06 and 0.5 MB), which
	// the resident heap figures would then count as the page's.
	const read = async <T>(expression: string): Promise<T> => {
		const r = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
		if (r.exceptionDetails) throw new Error(`bench: ${expression}: ${r.exceptionDetails.text}`);
		return r.result.value as T;
	};
	const gc = async () => {
		// Twice: the first pass may only queue finalizers whose objects the second frees.
		await cdp.send('HeapProfiler.collectGarbage');
		await cdp.send('HeapProfiler.collectGarbage');
	};
	return {
		page,
		cdp,
		metrics,
		heapAfterGc: async () => {
			await gc();
			return (await cdp.send('Runtime.getHeapUsage')).usedSize;
		},
		domNodesAfterGc: async () => {
			await gc();
			return (await metrics()).Nodes ?? NaN;
		},
		frames: () => read('window.__bench?.frames ?? 0'),
		takeAudio: () => read('window.__bench ? window.__bench.audio.splice(0) : []'),
		waitFor: async (expression, timeoutMs = 30_000) => {
			const end = Date.now() + timeoutMs;
			while (!(await read(`!!(${expression})`))) {
				if (Date.now() > end) throw new Error(`bench: timed out waiting for ${expression}`);
				await new Promise((r) => setTimeout(r, 50));
			}
		},
		close: () => context.close()
	};
}
