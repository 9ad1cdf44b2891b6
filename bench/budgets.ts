// Every budget of the widget bench (`npm run bench`) in one place, and the live view's memory mark
// (`npm run bench:view`, and bench:hosted's intake part, which runs it). The bench prints each figure
// against its budget; tests hold the deterministic ones (bytes, call counts) to these numbers.
// docs/performance.md describes each figure and how it is measured.

/** The targets the bench reports against. */
export const BUDGETS = {
	/** tip.tts_ready leaving the simulator → the start call arriving at it, p95, loopback (ms). */
	reactionP95Ms: 15,
	/** End of one tip's audio → start of the next already-ready tip's audio, p95 (ms). */
	gapP95Ms: 50,
	/** Upstream calls per played tip in steady state: start and finish. */
	callsPerTip: 2,
	/**
	 * Our own code on a page, gzipped JS + CSS (bytes), from `npm run bench:weight`: the page minus
	 * the floor page of the libraries it loads (bench/floor.ts: Svelte and each of zod/mini, howler,
	 * gsap and reconnecting-websocket the page uses, imported and used once). The floor itself is
	 * reported, not budgeted: it is the specified stack's, not ours. Each is set about 0.3 to 0.4 kB
	 * above the page's size when last raised: readable Svelte components and the features the pages
	 * carry (moderation, stored settings, the push channel, key retry, the events a read names so
	 * that the token endpoint's view answers it holding them: about 90 B) are worth their bytes.
	 */
	ownWeightBytes: {
		'widget-tts': 36_300,
		'widget-counters': 23_100,
		/** A full overlay with every widget (the media player it loads on demand included). */
		overlay: 56_800
	} as Record<string, number>,
	/** Animation frames a second of an idle connected page. */
	idleFramesPerS: 0,
	/** Main-thread task time of an idle connected page (ms of task time per second). */
	idleTaskMsPerS: 0.1,
	/** Chromium's CPU share above an empty page's (percentage points of one core). */
	idleCpuOverBlankPts: 0.1,
	/** JS heap after GC of a connected idle page (MB): the TTS page and a full overlay. */
	residentHeapMb: { tts: 1.3, overlay: 1.8 },
	/** JS heap growth after GC between tip 100 and tip 2,000 (MB). */
	soakHeapGrowthMb: 2,
	/** DOM nodes growth between tip 100 and tip 2,000. */
	soakDomGrowth: 0,
	/** Simulator accepting connections again → first event applied, p95 (ms). */
	recoveryP95Ms: 1500,
	/** Plays lost or doubled over the recovery drops. */
	recoveryLostOrDoubled: 0,
	/** Latency the token endpoint adds to a proxied call, p99, loopback (ms). */
	endpointAddedP99Ms: 2,
	/**
	 * What thanks in chat add to a finish (bench/thanks.ts), p99, with 10,000 tips thanked today
	 * over an empty day's: at most 10% more.
	 */
	thanksFullDayP99Ratio: 1.1
} as const;

/**
 * Ceilings tests/e2e/weight.spec.ts holds each built page to: its whole weight, gzipped JS + CSS
 * (bytes) as `npm run bench:weight` prints it, measured when the ceiling was last set plus a small
 * margin, so that growth fails a test while the budget above stays the target. Lower them whenever
 * a page gets lighter.
 */
export const WEIGHT_CEILINGS: Record<string, number> = {
	// A page the streamer keeps open, not an OBS source: held videos, the moderation rules' form, the
	// counters (with the reason a value is refused), the tip goals' forms, the celebration and the
	// Chat section (thanks settings with their preview, Send to chat, the thanks that may not have
	// gone with Send again and It went), the Activity (its list, summary, export and delete, a
	// chunk of its own loaded once the dock has read; its entries' schemas come with the /control
	// contract) and the Chat commands (each on or off with its trigger and permission, the last
	// runs: about 3.2 kB; in the dock's own chunk, which compresses better than one of its own), and
	// the events its reads name (X-Seen-Event).
	dock: 79_100,
	// The settings editor's page (/editor), opened in a browser to set up, never an OBS source; the
	// /control contract it reads brings the Activity's routes.
	editor: 56_500,
	index: 11_000,
	overlay: 110_900,
	// The preview carries the settings editor (every widget's parameter table, howler for the
	// sounds' play button) and, for its demo Chat panel, the push channel's reader: a page opened in
	// a browser to set up, never an OBS source (the /control contract brings the Activity's routes;
	// demo mode's box to type a chat line as a viewer or a moderator, about 650 B).
	preview: 77_100,
	'widget-celebration': 65_000,
	'widget-counters': 67_900,
	'widget-leaderboard': 39_200,
	'widget-media': 51_800,
	'widget-recent': 40_400,
	'widget-tip-goal': 70_100,
	// The spectator copy's plain queue read (claim=never) put it 6 B over 89,900; the events its
	// reads name (X-Seen-Event) 54 B over 90,000.
	'widget-tts': 90_150
};

/**
 * Our own code on a budgeted page (the page minus its libraries' floor, bytes gz, from
 * `npm run bench:weight`) when last measured within its budget, plus a small margin: the weight
 * test holds each page to the larger of this and its budget (BUDGETS.ownWeightBytes), so that our
 * code can only shrink until the budget is met. Each is below its budget today, so the budget binds.
 */
export const OWN_WEIGHT_CEILINGS: Record<string, number> = {
	'widget-tts': 28_000,
	'widget-counters': 17_000,
	overlay: 48_500
};

/**
 * The upstream calls a TTS page makes to connect (the tenant's currency once, a handoff token, a
 * read of the queue) and after every lost connection (a token and a re-read: events are hints).
 * Held by tests/e2e/api-economy.spec.ts; the bench prints the counts.
 */
export const CALLS_PER_CONNECT: readonly string[] = [
	'GET /me',
	'POST /realtime/token',
	'GET /tts/queue'
];
export const CALLS_PER_RECONNECT: readonly string[] = ['POST /realtime/token', 'GET /tts/queue'];

/** The most heap one streamer's live view may add (KB): 50 tips and 20 videos queued, 25 played. */
export const VIEW_HEAP_MARK_KB = 64;
