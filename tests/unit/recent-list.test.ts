// The recent-events list's merge, its URL parameters, its tips as moderation decided them, and the
// leaderboard's one debounced re-read.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../src/client/event-hub.ts';
import type { KnownEvent, QueueMediaItem, QueueTip } from '../../src/contract/index.ts';
import { LeaderboardState, TIP_DEBOUNCE_MS } from '../../widgets/leaderboard/leaderboard.svelte.ts';
import { parseLeaderboardParams } from '../../widgets/leaderboard/params.ts';
import { parseRecentParams } from '../../widgets/recent/params.ts';
import { listedVideo, mergeRecent, tipRow, videoRow } from '../../widgets/recent/recent-list.ts';
import { DECISION_READ_MS, RecentState } from '../../widgets/recent/recent.svelte.ts';

const KEY = 'k'.repeat(20);
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();
const tip = (id: string, s: number, name = id) =>
	({ order_id: id, name, amount: 5, message: 'hi', queued_at: at(s) }) as QueueTip;
const video = (id: string, s: number) =>
	({
		order_id: id,
		donor_name: 'V',
		video_title: null,
		media_url: 'https://example.com/v',
		queued_at: at(s)
	}) as QueueMediaItem;

describe('mergeRecent', () => {
	it('lists newest first across tips and videos, one row per order id, at most limit rows', () => {
		const played = [tip('tip_1', 1), tip('tip_2', 2)];
		const queued = [tip('tip_2', 2), tip('tip_3', 3)];
		const videos = [video('med_1', 4)];
		const rows = mergeRecent([played.map(tipRow), queued.map(tipRow), videos.map(videoRow)], 3);
		expect(rows.map((r) => r.key)).toEqual(['video:med_1', 'tip:tip_3', 'tip:tip_2']);
	});

	it('a later copy of the same order id replaces the earlier one', () => {
		const rows = mergeRecent(
			[[tipRow(tip('tip_1', 1, 'old'))], [tipRow(tip('tip_1', 1, 'new'))]],
			5
		);
		expect(rows.map((r) => r.name)).toEqual(['new']);
	});

	it('a tip and the video it paid for stay two rows; a video without title shows its URL', () => {
		const rows = mergeRecent([[tipRow(tip('tip_1', 1))], [videoRow(video('tip_1', 1))]], 5);
		expect(rows.map((r) => r.kind).sort()).toEqual(['tip', 'video']);
		expect(rows.find((r) => r.kind === 'video')?.text).toBe('https://example.com/v');
		expect(rows.find((r) => r.kind === 'video')?.amount).toBeNull();
	});

	it('ties keep a stable order whatever the input order', () => {
		const a = mergeRecent([[tipRow(tip('tip_a', 1)), tipRow(tip('tip_b', 1))]], 5);
		const b = mergeRecent([[tipRow(tip('tip_b', 1)), tipRow(tip('tip_a', 1))]], 5);
		expect(a).toEqual(b);
	});
});

describe('URL parameters', () => {
	it('limit defaults to 10 for recent events and 5 for top supporters', () => {
		const r = parseRecentParams(`?key=${KEY}`);
		const l = parseLeaderboardParams(`?key=${KEY}`);
		expect(r.ok && r.value.limit).toBe(10);
		expect(l.ok && l.value.limit).toBe(5);
	});

	it.each(['0', '51', 'ten', '2.5'])('recent refuses limit=%s, naming the parameter', (v) => {
		const r = parseRecentParams(`?key=${KEY}&limit=${v}`);
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.errors.join(' ')).toMatch(/^limit: /);
	});

	it('top supporters take 1 to 25 rows', () => {
		expect(parseLeaderboardParams(`?key=${KEY}&limit=25`).ok).toBe(true);
		expect(parseLeaderboardParams(`?key=${KEY}&limit=26`).ok).toBe(false);
	});
});

describe('the leaderboard re-read', () => {
	afterEach(() => vi.useRealTimers());

	/** A board on a fake API (fake timers), after its first read; `reads()` counts the board reads. */
	async function startedBoard() {
		vi.useFakeTimers();
		const calls: string[] = [];
		const api = {
			request: vi.fn(async ({ name }: { name: string }) => {
				calls.push(name);
				if (name === 'me')
					return {
						ok: true,
						status: 200,
						body: { tenant: { currency: 'EUR', currency_symbol: '€' } }
					};
				return { ok: true, status: 200, body: { supporters: [] } };
			})
		};
		const events = new EventHub();
		const board = new LeaderboardState({ api: api as never, events, limit: 5 }).start();
		await vi.runAllTimersAsync();
		const reads = () => calls.filter((c) => c === 'leaderboard').length;
		const tipped = { type: 'tip.created', data: { tip: tip('tip_9', 9) } } as unknown as KnownEvent;
		return { board, reads, sendTip: () => events.emit(tipped) };
	}

	it('a burst of tips is one read after the debounce, and nothing runs afterwards', async () => {
		const { board, reads, sendTip } = await startedBoard();
		expect(reads()).toBe(1);
		for (let i = 0; i < 5; i++) sendTip();
		await vi.advanceTimersByTimeAsync(TIP_DEBOUNCE_MS - 1);
		expect(reads()).toBe(1);
		await vi.advanceTimersByTimeAsync(1);
		expect(reads()).toBe(2);
		expect(vi.getTimerCount()).toBe(0);
		expect(board.view.currency?.code).toBe('EUR');
		board.destroy();
	});

	it('reads within TIP_DEBOUNCE_MS of a tip even while tips keep coming', async () => {
		const { board, reads, sendTip } = await startedBoard();
		expect(reads()).toBe(1);
		// A tip every third of the debounce: a timer reset by each tip would never fire.
		const step = Math.floor(TIP_DEBOUNCE_MS / 3);
		for (let i = 0; i < 9; i++) {
			sendTip();
			await vi.advanceTimersByTimeAsync(step);
		}
		expect(reads()).toBe(1 + 3);
		board.destroy();
	});
});

describe('recent tips obey moderation', () => {
	afterEach(() => vi.useRealTimers());

	const decided = (id: string, s: number, outcome: string | null, message: string | null) =>
		({
			...tip(id, s),
			message,
			...(outcome ? { moderation: { outcome, message: 'shown' } } : {})
		}) as QueueTip;

	/**
	 * A list on a fake API whose TTS and media queues the test sets (`queue`, `videos`); `reads()`
	 * counts its reads.
	 */
	async function startedList(queue: QueueTip[], videos: QueueMediaItem[] = []) {
		vi.useFakeTimers();
		const calls: string[] = [];
		const api = {
			request: vi.fn(async ({ name }: { name: string }) => {
				calls.push(name);
				const body =
					name === 'ttsHistory'
						? { tips: [] }
						: name === 'ttsQueue'
							? { items: queue }
							: name === 'mediaQueue'
								? { items: videos }
								: { media: [] };
				return name === 'me' ? { ok: false, kind: 'network' } : { ok: true, status: 200, body };
			})
		};
		const events = new EventHub();
		const list = new RecentState({ api: api as never, events, limit: 10 }).start();
		await vi.runAllTimersAsync();
		const reads = () => calls.filter((c) => c === 'ttsQueue').length;
		return { list, events, reads };
	}

	it('lists only tips decided read or no_voice, with the message the token endpoint gave', async () => {
		const { list } = await startedList([
			decided('tip_1', 1, 'read', 'hello'),
			decided('tip_2', 2, 'no_voice', '•••• you'),
			decided('tip_3', 3, 'hold', null),
			decided('tip_4', 4, 'pending', null),
			decided('tip_5', 5, null, 'not decided')
		]);
		expect(list.view.rows.map((r) => [r.key, r.text])).toEqual([
			['tip:tip_2', '•••• you'],
			['tip:tip_1', 'hello']
		]);
		list.destroy();
	});

	it('a tip.created shows no row by itself: it has the list read, which decides it', async () => {
		const queue: QueueTip[] = [];
		const { list, events, reads } = await startedList(queue);
		expect(reads()).toBe(1);
		const created = { ...tip('tip_9', 9), message: 'raw words' };
		events.emit({ type: 'tip.created', data: { tip: created } } as unknown as KnownEvent);
		expect(list.view.rows).toEqual([]);
		queue.push(decided('tip_9', 9, 'no_voice', '••• words'));
		await vi.advanceTimersByTimeAsync(DECISION_READ_MS);
		expect(reads()).toBe(2);
		expect(list.view.rows.map((r) => r.text)).toEqual(['••• words']);
		// A decision changed (a held tip approved): read again.
		events.live({ type: 'decision', order_id: 'tip_9' });
		await vi.advanceTimersByTimeAsync(DECISION_READ_MS);
		expect(reads()).toBe(3);
		// A thanks posted in chat, or stored settings saved: the lists are the same, nothing is read.
		events.live({ type: 'chat' });
		events.live({ type: 'settings', target: 'recent', version: 2 });
		await vi.advanceTimersByTimeAsync(DECISION_READ_MS * 2);
		expect(reads()).toBe(3);
		list.destroy();
	});

	it('a video request shows once a read has it decided to play; a held one never', async () => {
		const videos: QueueMediaItem[] = [];
		const { list, events, reads } = await startedList([], videos);
		events.emit({
			type: 'queue.media.added',
			data: { media: { ...video('med_1', 1), video_title: 'Raw title', is_replay: false } }
		} as unknown as KnownEvent);
		expect(list.view.rows).toEqual([]);
		const decidedVideo = (id: string, s: number, outcome: string) =>
			({
				...video(id, s),
				video_title: outcome === 'read' ? 'A song' : null,
				is_replay: false,
				moderation: { outcome, message: outcome === 'read' ? 'shown' : 'hidden' }
			}) as QueueMediaItem;
		videos.push(decidedVideo('med_1', 1, 'read'), decidedVideo('med_2', 2, 'hold'));
		await vi.advanceTimersByTimeAsync(DECISION_READ_MS);
		expect(reads()).toBe(2);
		expect(list.view.rows.map((r) => [r.key, r.text])).toEqual([['video:med_1', 'A song']]);
		list.destroy();
	});

	it('lists a played video of no decision (played before any), never an undecided queued one', () => {
		const plain = { ...video('med_1', 1), is_replay: false } as QueueMediaItem;
		expect(listedVideo(plain, true)).toBe(true);
		expect(listedVideo(plain, false)).toBe(false);
		expect(listedVideo({ ...plain, is_replay: true }, true)).toBe(false);
	});
});
