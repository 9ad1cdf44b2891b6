// The browser scenarios of the bench: reaction, gap and API economy (playRun), the memory soak
// (soakRun) and the recovery from dropped connections (recoveryRun). Each run gets a fresh stack
// and a fresh browser, so runs are independent; run.ts repeats them and reports min, median and
// max over the runs. The idle part, one start-up and then consecutive windows, is in idle.ts.
import { launch, openPage, type AudioMark } from './browser.ts';
import { sleep } from './lib.ts';
import { createTip, FAST, quiet, ttsReady } from './scenario-steps.ts';
import { FINISH, START, orderIdOfAudio, startStack, type Stack } from './stack.ts';

export interface PlayRun {
	/** tip.tts_ready sent → start call answered, per tip (ms). */
	reactionMs: number[];
	/** One tip's audio ended → the next (already ready) tip's audio playing, per pair (ms). */
	gapMs: number[];
	/**
	 * Each gap in three parts, per pair (ms), on one clock (the page's marks and the simulator's
	 * log): the audio's end → its finish answered upstream; → the next start answered upstream (the
	 * finish's answer back through the endpoint, the page, the start's request); → that tip's audio
	 * playing (the start's answer back, the card, the element's `play()`).
	 */
	gapParts: { finish: number[]; start: number[]; play: number[] };
	/** Upstream calls per played tip between the page's start-up reads and the last finish. */
	callsPerTip: number;
	/** Upstream calls one clean reconnect costs (socket dropped, reconnect allowed at once). */
	callsPerReconnect: number[];
	/** Upstream calls of the page's first connect (token, reads). */
	callsAtConnect: number;
}

/**
 * Reaction, gap and API economy: `single` tips one at a time on an idle page (reaction), then a
 * burst of `burst` tips queued at once (gaps between already-ready tips), then clean reconnects.
 */
export async function playRun(opts: {
	single: number;
	burst: number;
	clipMs: number;
	reconnects: number;
}): Promise<PlayRun> {
	const stack = await startStack({ audioClipMs: opts.clipMs });
	const b = await launch();
	try {
		const p = await openPage(b);
		const t0 = Date.now();
		await p.page.goto(stack.url('/widget/tts', FAST));
		await ttsReady(p);
		await quiet(stack);
		const callsAtConnect = stack.tracker.requestsBetween(t0).length;
		const steadyFrom = Date.now();
		const { tracker } = stack;
		const reactionMs: number[] = [];
		const played: string[] = [];
		for (let i = 0; i < opts.single; i++) {
			const id = createTip(stack, i);
			played.push(id);
			await tracker.until(() => tracker.finishes.has(id), `tip ${id} finished`);
			reactionMs.push(tracker.starts.get(id)![0] - tracker.ready.get(id)!);
			await sleep(50 + Math.random() * 100);
		}
		await p.takeAudio();
		const burst: string[] = [];
		for (let i = 0; i < opts.burst; i++) burst.push(createTip(stack, 1000 + i));
		played.push(...burst);
		await tracker.until(
			() => burst.every((id) => tracker.finishes.has(id)),
			'the burst finished',
			60_000
		);
		const steadyTo = Date.now() + 1;
		await quiet(stack, 300);
		const { gapMs, gapParts } = gaps(await p.takeAudio(), burst, tracker);
		const steadyCalls = tracker.requestsBetween(steadyFrom, steadyTo).length;

		const callsPerReconnect: number[] = [];
		for (let i = 0; i < opts.reconnects; i++) {
			const from = Date.now();
			stack.sim.control.dropSockets(0);
			// The reconnect waits its backoff (0.5 to 1 s), then mints a token and re-reads.
			await sleep(2_500);
			await quiet(stack);
			callsPerReconnect.push(tracker.requestsBetween(from).length);
		}
		await p.close();
		return {
			reactionMs,
			gapMs,
			gapParts,
			callsPerTip: steadyCalls / played.length,
			callsPerReconnect,
			callsAtConnect
		};
	} finally {
		await b.close();
		await stack.close();
	}
}

/** Gaps between consecutive tips of `order`: ended of one → playing of the next, and its parts. */
function gaps(
	marks: AudioMark[],
	order: string[],
	tracker: Stack['tracker']
): Pick<PlayRun, 'gapMs' | 'gapParts'> {
	const first = (kind: AudioMark['kind'], id: string) =>
		marks.find((m) => m.kind === kind && orderIdOfAudio(m.src) === id)?.t;
	const gapMs: number[] = [];
	const gapParts: PlayRun['gapParts'] = { finish: [], start: [], play: [] };
	for (let i = 1; i < order.length; i++) {
		const ended = first('ended', order[i - 1]);
		const playing = first('playing', order[i]);
		if (ended === undefined || playing === undefined) continue;
		gapMs.push(playing - ended);
		const finished = tracker.finishes.get(order[i - 1])?.[0];
		const started = tracker.starts.get(order[i])?.[0];
		if (finished === undefined || started === undefined) continue;
		gapParts.finish.push(finished - ended);
		gapParts.start.push(started - finished);
		gapParts.play.push(playing - started);
	}
	if (gapMs.length < order.length - 1)
		throw new Error(`bench: audio marks missing (${gapMs.length} gaps for ${order.length} tips)`);
	return { gapMs, gapParts };
}

export interface SoakRun {
	heapMbAt: number;
	heapMbEnd: number;
	domAt: number;
	domEnd: number;
	tips: number;
	lostOrDoubled: number;
	seconds: number;
}

/** Memory soak: `tips` short tips through one TTS page; heap and DOM after GC at `checkAt` and at the end. */
export async function soakRun(opts: {
	tips: number;
	checkAt: number;
	clipMs: number;
	queued: number;
}): Promise<SoakRun> {
	const stack = await startStack({ audioClipMs: opts.clipMs });
	const b = await launch();
	const started = Date.now();
	try {
		const p = await openPage(b);
		await p.page.goto(stack.url('/widget/tts', FAST));
		await ttsReady(p);
		const { tracker } = stack;
		const ids: string[] = [];
		let done = 0;
		const playUntil = async (n: number) => {
			while (done < n) {
				while (ids.length < n && ids.length - done < opts.queued)
					ids.push(createTip(stack, ids.length));
				await tracker.until(
					() => tracker.finishes.has(ids[done]),
					`soak tip ${done} finished`,
					30_000
				);
				while (done < ids.length && tracker.finishes.has(ids[done])) done++;
			}
			await quiet(stack, 300);
			await p.takeAudio(); // the marks would grow the heap we measure
			await sleep(200);
		};
		await playUntil(opts.checkAt);
		const heapAt = await p.heapAfterGc();
		const domAt = await p.domNodesAfterGc();
		await playUntil(opts.tips);
		const heapEnd = await p.heapAfterGc();
		const domEnd = await p.domNodesAfterGc();
		const lostOrDoubled = ids.filter(
			(id) => tracker.starts.get(id)?.length !== 1 || tracker.finishes.get(id)?.length !== 1
		).length;
		await p.close();
		return {
			heapMbAt: heapAt / 2 ** 20,
			heapMbEnd: heapEnd / 2 ** 20,
			domAt,
			domEnd,
			tips: ids.length,
			lostOrDoubled,
			seconds: (Date.now() - started) / 1000
		};
	} finally {
		await b.close();
		await stack.close();
	}
}

export interface RecoveryRun {
	/** Simulator accepting again → the tip missed while down started, per drop (ms). */
	recoveryMs: number[];
	drops: number;
	/** Tips not played exactly once (started and finished once, audio playing once). */
	lostOrDoubled: number;
	/** Upstream calls from the drop to the missed tip's start (refused attempts included), per drop. */
	callsPerDrop: number[];
}

/**
 * Recovery: `drops` times, a tip plays, the sockets die at a random moment (during or after its
 * audio) and reconnects are refused for a random 0.1–0.6 s; a tip created while the page is cut off
 * (its events never reach it) must be picked up once the simulator accepts connections again.
 */
export async function recoveryRun(opts: { drops: number; clipMs: number }): Promise<RecoveryRun> {
	const stack = await startStack({ audioClipMs: opts.clipMs });
	const b = await launch();
	try {
		const p = await openPage(b);
		await p.page.goto(stack.url('/widget/tts', FAST));
		await ttsReady(p);
		await quiet(stack);
		const { tracker } = stack;
		const recoveryMs: number[] = [];
		const callsPerDrop: number[] = [];
		const all: string[] = [];
		await p.takeAudio();
		const marks: AudioMark[] = [];
		for (let i = 0; i < opts.drops; i++) {
			const a = createTip(stack, 2 * i);
			all.push(a);
			await tracker.until(() => tracker.starts.has(a), `tip ${a} started`);
			await sleep(Math.random() * opts.clipMs * 2);
			const refuseMs = 100 + Math.random() * 500;
			const dropAt = Date.now();
			stack.sim.control.dropSockets(refuseMs);
			const acceptAt = dropAt + refuseMs;
			await sleep(Math.random() * refuseMs * 0.9);
			const missed = createTip(stack, 2 * i + 1);
			all.push(missed);
			await tracker.until(
				() => tracker.finishes.has(missed) && tracker.finishes.has(a),
				`missed tip ${missed} played`
			);
			const freeAt = Math.max(acceptAt, tracker.finishes.get(a)![0]);
			recoveryMs.push(tracker.starts.get(missed)![0] - freeAt);
			const startedAt = tracker.starts.get(missed)![0];
			callsPerDrop.push(
				tracker
					.requestsBetween(dropAt, startedAt)
					.filter((e) => !START.test(e.path!) && !FINISH.test(e.path!)).length
			);
			marks.push(...(await p.takeAudio()));
		}
		await quiet(stack, 500);
		marks.push(...(await p.takeAudio()));
		const plays = (id: string) =>
			marks.filter((m) => m.kind === 'playing' && orderIdOfAudio(m.src) === id).length;
		const lostOrDoubled = all.filter(
			(id) =>
				tracker.starts.get(id)?.length !== 1 ||
				tracker.finishes.get(id)?.length !== 1 ||
				plays(id) !== 1
		).length;
		await p.close();
		return { recoveryMs, drops: opts.drops, lostOrDoubled, callsPerDrop };
	} finally {
		await b.close();
		await stack.close();
	}
}
