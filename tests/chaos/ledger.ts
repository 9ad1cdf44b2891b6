// The chaos ledger: from the simulator's log (every API call, every event, every audio and video
// fetch) and, when the consumers are our Node consumers, their play records, decide whether every
// queued item was played exactly once. Pure: the chaos run and the self-tests feed it.
//
// Per item (TTS tip or media request), the log gives its claims: each `started` event opens one,
// and the next `finished`, `released`, `skipped`, `removed` or queue `cleared` closes it. Rules:
// - finished at most once, and only under a claim;
// - finished only after it played: a completed play record under that claim (Node consumers), or
//   at least a fetch of its audio / video before the finish (pages, whose plays we cannot see);
// - played to its end at most once, unless the streamer stopped it (skip, remove, clear) or the
//   page that played it crashed for good before it could finish it (no one can know it played);
//   a completed play whose claim was then released (not finished) will be played again: a fault;
// - never played outside a claim, never by two pages at once;
// - no claim stuck: a claim lasts at most the takeover time (plus the item's length for media, plus
//   slack for injected 429/502 bursts) while any consumer is alive to take it over; time while the
//   media queue is paused does not count (the media takeover clock stops during a pause);
// - at the end of a drained run nothing is claimed, and what is still queued was refused by every
//   consumer (a video that cannot play) or its audio never became ready.
import type { LogEntry } from '../../src/sim/log.ts';
import type { LifeSpan, PlayRecord, QueueName } from './consumers.ts';

export interface LedgerInput {
	log: readonly LogEntry[];
	/** Play records of Node consumers; absent or partial when real pages took part. */
	plays?: readonly PlayRecord[];
	/** Every consumer's page lives (for the crash exemption and the stuck rule). */
	lives?: readonly LifeSpan[];
	/** Whether every consumer recorded its plays (no pages): then a finish needs a play record. */
	allRecorded: boolean;
	/** The asset path (`/demo/x.webm?n=1`) of each media order id, for fetch attribution. */
	mediaPaths?: Readonly<Record<string, string>>;
	/** The longest a healthy claim may last on this item, before slack. */
	claimLimitMs: (queue: QueueName, orderId: string) => number;
	/** Extra time for injected 429/502 bursts and reconnects. */
	slackMs: number;
	/** Two pages playing one item at once for longer than this is a double play. */
	overlapGraceMs: number;
	/** When the run ended. */
	endAt: number;
	/** The run ended with a drain (faults off, queues resumed, consumers alive). */
	drained: boolean;
	/** What the queues held at the end, by the upstream's own read. */
	remaining?: { tts: string[]; media: string[] };
}

export type Outcome = 'finished' | 'skipped' | 'removed' | 'cleared' | 'queued';
type ClaimEnd = 'finished' | 'released' | 'skipped' | 'removed' | 'cleared' | 'reset' | 'open';

interface Claim {
	start: number;
	end: number | null;
	how: ClaimEnd;
}

export interface ItemLedger {
	queue: QueueName;
	orderId: string;
	outcome: Outcome;
	claims: Claim[];
	finishes: number;
	fetches: number;
	completedPlays: number;
}

export interface LedgerResult {
	ok: boolean;
	violations: string[];
	items: ItemLedger[];
	summary: Record<QueueName, Record<Outcome, number> & { plays: number; claims: number }>;
}

const QUEUE_OF: Record<string, QueueName> = { tts: 'tts', media: 'media' };

export function checkLedger(input: LedgerInput): LedgerResult {
	const violations: string[] = [];
	const items = new Map<string, ItemLedger & { claimsOpen: Claim | null }>();
	const key = (q: QueueName, id: string) => `${q}:${id}`;
	const item = (q: QueueName, id: string) => {
		let it = items.get(key(q, id));
		if (!it) {
			it = {
				queue: q,
				orderId: id,
				outcome: 'queued',
				claims: [],
				finishes: 0,
				fetches: 0,
				completedPlays: 0,
				claimsOpen: null
			};
			items.set(key(q, id), it);
		}
		return it;
	};
	const close = (it: ItemLedger & { claimsOpen: Claim | null }, t: number, how: ClaimEnd) => {
		if (!it.claimsOpen) return false;
		it.claimsOpen.end = t;
		it.claimsOpen.how = how;
		it.claimsOpen = null;
		return true;
	};
	const pausedSpans: Record<QueueName, [number, number][]> = { tts: [], media: [] };
	const pausedSince: Record<QueueName, number | null> = { tts: null, media: null };
	const fetchTimes = new Map<string, number[]>();
	const mediaByPath = new Map(Object.entries(input.mediaPaths ?? {}).map(([id, p]) => [p, id]));

	const log = [...input.log].sort((a, b) => a.seq - b.seq);
	let previous: LogEntry | undefined;
	for (const e of log) {
		if (e.kind === 'asset') {
			const audio = /^\/audio\/([^/?]+)\.wav/.exec(e.path);
			const id = audio ? audio[1] : mediaByPath.get(e.path);
			if (id) {
				const k = key(audio ? 'tts' : 'media', id);
				fetchTimes.set(k, [...(fetchTimes.get(k) ?? []), e.t]);
			}
		} else if (e.kind === 'event') {
			const m = /^queue\.(tts|media)\.(\w+)$/.exec(e.type);
			if (e.type === 'tip.created' && e.order_id) item('tts', e.order_id);
			if (m) {
				const q = QUEUE_OF[m[1]];
				const what = m[2];
				const id = e.order_id;
				if (what === 'added' && id) item(q, id);
				else if (what === 'started' && id) {
					const it = item(q, id);
					if (it.claimsOpen)
						violations.push(`${q} ${id}: started again at ${e.t} while its claim was open`);
					close(it, e.t, 'released');
					it.claimsOpen = { start: e.t, end: null, how: 'open' };
					it.claims.push(it.claimsOpen);
				} else if (what === 'finished' && id) {
					const it = item(q, id);
					it.finishes += 1;
					if (!close(it, e.t, 'finished'))
						violations.push(`${q} ${id}: finished at ${e.t} without a claim`);
					it.outcome = 'finished';
				} else if (what === 'released' && id) {
					const reset =
						q === 'media' && previous?.kind === 'event' && previous.type === 'queue.tts.cleared';
					close(item(q, id), e.t, reset ? 'reset' : 'released');
				} else if ((what === 'skipped' || what === 'removed') && id) {
					const it = item(q, id);
					close(it, e.t, what);
					if (it.outcome === 'queued') it.outcome = what;
				} else if (what === 'cleared') {
					for (const it of items.values()) {
						if (it.queue !== q || it.outcome !== 'queued') continue;
						close(it, e.t, 'cleared');
						it.outcome = 'cleared';
					}
				} else if (what === 'paused' || what === 'resumed') {
					if (what === 'paused' && pausedSince[q] === null) pausedSince[q] = e.t;
					if (what === 'resumed' && pausedSince[q] !== null) {
						pausedSpans[q].push([pausedSince[q] as number, e.t]);
						pausedSince[q] = null;
					}
				}
			}
		}
		previous = e;
	}
	for (const q of ['tts', 'media'] as const)
		if (pausedSince[q] !== null) pausedSpans[q].push([pausedSince[q] as number, input.endAt]);

	const lives = new Map((input.lives ?? []).map((l) => [l.life, l]));
	const plays = input.plays ?? [];
	const playsOf = new Map<string, PlayRecord[]>();
	for (const p of plays) {
		const k = key(p.queue, p.orderId);
		playsOf.set(k, [...(playsOf.get(k) ?? []), p]);
		if (!items.has(k)) violations.push(`${p.queue} ${p.orderId}: played but never queued`);
	}
	const completed = (p: PlayRecord) => p.how === 'ended' || p.how === 'text';

	for (const it of items.values()) {
		const k = key(it.queue, it.orderId);
		const label = `${it.queue} ${it.orderId}`;
		const fetched = fetchTimes.get(k) ?? [];
		it.fetches = fetched.length;
		const mine = playsOf.get(k) ?? [];
		const done = mine.filter(completed);
		it.completedPlays = done.length;
		if (it.finishes > 1) violations.push(`${label}: finished ${it.finishes} times`);

		const claimAt = (t: number) =>
			it.claims.find((c) => c.start <= t && (c.end === null || t <= c.end));
		// Each play inside a claim; each completed play counted against that claim's end.
		let counting = 0;
		// Which plays counted, under which claims: what a failed run must say to be understood.
		const counted: string[] = [];
		for (const p of mine) {
			const c = claimAt(p.startedAt);
			if (!c) {
				violations.push(`${label}: played by ${p.life} at ${p.startedAt} without a claim`);
				continue;
			}
			if (!completed(p)) continue;
			const life = lives.get(p.life);
			const crashed =
				life?.how === 'vanish' &&
				life.endedAt !== null &&
				(c.end === null || life.endedAt <= c.end);
			if (c.how === 'finished' || c.how === 'open') {
				counting += 1;
				counted.push(
					`by ${p.life} (${life?.how ?? 'alive'}) ${p.startedAt}-${p.endedAt} under the claim ${c.start}-${c.end ?? 'open'} (${c.how})`
				);
			} else if (c.how === 'released') {
				if (crashed) continue;
				counting += 1;
				violations.push(
					`${label}: played to its end by ${p.life} at ${p.endedAt}, then released (not finished), so it plays again`
				);
			}
		}
		if (counting > 1)
			violations.push(`${label}: played to its end ${counting} times: ${counted.join('; ')}`);

		for (const c of it.claims.filter((c) => c.how === 'finished')) {
			const played = mine.some(
				(p) => completed(p) && p.startedAt >= c.start && (p.endedAt ?? Infinity) <= (c.end ?? 0)
			);
			const fetchedBefore = fetched.some((t) => t <= (c.end ?? 0));
			if (input.allRecorded ? !played : !played && !fetchedBefore)
				violations.push(`${label}: finished at ${c.end} without being played`);
		}

		// Two pages playing it at once.
		for (let i = 0; i < mine.length; i++)
			for (let j = i + 1; j < mine.length; j++) {
				const a = mine[i];
				const b = mine[j];
				if (a.life === b.life) continue;
				const overlap =
					Math.min(a.endedAt ?? input.endAt, b.endedAt ?? input.endAt) -
					Math.max(a.startedAt, b.startedAt);
				if (overlap > input.overlapGraceMs)
					violations.push(`${label}: played by ${a.life} and ${b.life} at once for ${overlap} ms`);
			}

		// Stuck claims: held longer than the takeover allows while a consumer lived to take it over.
		const limit = input.claimLimitMs(it.queue, it.orderId) + input.slackMs;
		for (const c of it.claims) {
			const end = c.end ?? input.endAt;
			let watched = 0;
			for (const l of lives.values()) {
				const from = Math.max(c.start, l.startedAt);
				const to = Math.min(end, l.endedAt ?? input.endAt);
				if (to <= from) continue;
				const paused = it.queue === 'media' ? overlapOf(pausedSpans.media, from, to) : 0;
				watched = Math.max(watched, to - from - paused);
			}
			if (lives.size === 0) watched = end - c.start;
			if (watched > limit)
				violations.push(
					`${label}: claim from ${c.start} held ${end - c.start} ms (${watched} ms with a consumer alive), more than the ${limit} ms the takeover allows`
				);
			if (input.drained && c.end === null)
				violations.push(`${label}: still claimed at the end of a drained run`);
		}
	}

	if (input.drained && input.remaining) {
		for (const q of ['tts', 'media'] as const)
			for (const id of input.remaining[q]) {
				const it = items.get(key(q, id));
				const mine = playsOf.get(key(q, id)) ?? [];
				// Left queued on purpose: every attempt failed (a video that cannot play, audio that
				// never came), which leaves it for the streamer to skip or remove.
				const refused = mine.length > 0 && mine.every((p) => p.how === 'failed');
				const unrecordedTried = !input.allRecorded && (it?.claims.length ?? 0) > 0;
				if (!refused && !unrecordedTried)
					violations.push(`${q} ${id}: still queued after the drain, never played or refused`);
			}
	}

	const summary = {} as LedgerResult['summary'];
	for (const q of ['tts', 'media'] as const) {
		const s = { finished: 0, skipped: 0, removed: 0, cleared: 0, queued: 0, plays: 0, claims: 0 };
		for (const it of items.values()) {
			if (it.queue !== q) continue;
			s[it.outcome] += 1;
			s.plays += it.completedPlays;
			s.claims += it.claims.length;
		}
		summary[q] = s;
	}
	const list = [...items.values()].map(({ claimsOpen: _open, ...rest }) => rest);
	return { ok: violations.length === 0, violations, items: list, summary };
}

function overlapOf(spans: [number, number][], from: number, to: number): number {
	let total = 0;
	for (const [a, b] of spans) total += Math.max(0, Math.min(b, to) - Math.max(a, from));
	return total;
}
