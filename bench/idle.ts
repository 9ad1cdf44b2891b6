// The bench's idle part: what a connected page costs while nothing happens, the steady state a
// page lives in for hours in OBS (idleRun says how it is measured), and its memory after GC.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	CLOCK_TICKS,
	launch,
	openPage,
	treeCpuTicks,
	type BenchBrowser,
	type BenchPage
} from './browser.ts';
import { sleep } from './lib.ts';
import { quiet, ttsReady } from './scenario-steps.ts';
import { startStack } from './stack.ts';

export interface IdleFigures {
	/** Main-thread task time per second of wall time (ms/s). */
	taskMsPerS: number;
	framesPerS: number;
	/** CPU of the browser's whole process tree, % of one core. */
	cpuPct: number;
}

export interface ResidentFigures {
	/** JS heap after GC at the end (MB). */
	heapMb: number;
	domNodes: number;
}

const IDLE_PAGES = ['blank', 'tts', 'overlay'] as const;
type IdlePage = (typeof IDLE_PAGES)[number];

export interface IdleRun {
	/** One entry per window; the windows follow one another on the same pages. */
	windows: Record<IdlePage, IdleFigures>[];
	/** After the last window. */
	resident: Record<IdlePage, ResidentFigures>;
}

/**
 * Idle and resident cost: an empty page, a connected TTS page and a connected full overlay, each in
 * its own browser, side by side; `windows` windows of `seconds` with no events, then heap after GC.
 *
 * What is measured is the steady state a page lives in for hours in OBS, not its start-up:
 * - The windows open `settleS` after the last page connected. Until then Chromium is still busy
 *   with the page loads: V8's memory reducer runs one to three garbage collections about 30 s after
 *   a page loads (10 to 25 ms of main-thread time in all, on the empty page too), Blink polls the
 *   memory use of a page about every 1.4 s from about 60 to 120 s after its load (6 ms in that
 *   minute), and the page's own connect work settles. A 30 s window opened 2 s after start-up
 *   (as before) measured mostly that GC: 0.4 to 0.7 ms/s on every page; opened 45 s after, 0.1 to
 *   0.3 ms/s on the widget pages; from 2 minutes on, a TTS page alone in its browser stays at 0.03
 *   to 0.07 ms/s for at least 20 minutes.
 * - The browsers start `STAGGER_MS` apart, so that their periodic work does not fall on the same
 *   moment on two cores: the simulator pings each socket every 30 s from its connect, and each
 *   browser asks its renderer for a memory dump about a minute after it starts. Task time is wall
 *   time, so two renderers woken together on a loaded machine inflate each other's figure.
 * - The windows are 30 s (the ping period), so each holds one ping per connected page.
 * - The empty page is served over http from loopback, as the widgets are (a data: URL is a
 *   different kind of page to Chromium).
 */
export async function idleRun(opts: {
	seconds: number;
	windows: number;
	settleS: number;
}): Promise<IdleRun> {
	const STAGGER_MS = 10_000;
	const stack = await startStack();
	const empty = createServer((_, res) =>
		res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>blank</title>')
	);
	await new Promise<void>((resolve) => empty.listen(0, '127.0.0.1', resolve));
	const overlayId = stack.sim.control.model.overlayList()[0].id;
	const urls: Record<IdlePage, string> = {
		blank: `http://127.0.0.1:${(empty.address() as AddressInfo).port}/`,
		tts: stack.url('/widget/tts'),
		overlay: stack.url(`/overlay/${overlayId}`)
	};
	const browsers: BenchBrowser[] = [];
	try {
		const pages: BenchPage[] = [];
		for (const name of IDLE_PAGES) {
			if (browsers.length) await sleep(STAGGER_MS);
			const b = await launch();
			browsers.push(b);
			const p = await openPage(b);
			pages.push(p);
			if (name === 'overlay') await p.page.setViewportSize({ width: 1920, height: 1080 });
			await p.page.goto(urls[name]);
			if (name !== 'blank') await ttsReady(p);
		}
		await quiet(stack, 1_000);
		await sleep(opts.settleS * 1000);
		const mark = () =>
			Promise.all(
				pages.map(async (p, i) => ({
					task: (await p.metrics()).TaskDuration,
					frames: await p.frames(),
					ticks: browsers[i].pid === null ? NaN : treeCpuTicks(browsers[i].pid!),
					at: performance.now()
				}))
			);
		const windows: IdleRun['windows'] = [];
		let before = await mark();
		for (let w = 0; w < opts.windows; w++) {
			await sleep(opts.seconds * 1000);
			const after = await mark();
			const figures = IDLE_PAGES.map((_, i) => {
				const elapsedS = (after[i].at - before[i].at) / 1000;
				return {
					taskMsPerS: ((after[i].task - before[i].task) * 1000) / elapsedS,
					framesPerS: (after[i].frames - before[i].frames) / elapsedS,
					cpuPct: (((after[i].ticks - before[i].ticks) / CLOCK_TICKS) * 100) / elapsedS
				};
			});
			windows.push({ blank: figures[0], tts: figures[1], overlay: figures[2] });
			before = after;
		}
		const resident: ResidentFigures[] = [];
		for (const p of pages)
			resident.push({
				heapMb: (await p.heapAfterGc()) / 2 ** 20,
				domNodes: await p.domNodesAfterGc()
			});
		return { windows, resident: { blank: resident[0], tts: resident[1], overlay: resident[2] } };
	} finally {
		for (const b of browsers) await b.close();
		empty.close();
		await stack.close();
	}
}
