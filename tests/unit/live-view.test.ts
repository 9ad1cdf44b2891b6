// The live view's answers to what it cannot apply for sure: which parts it asks to read again for a
// malformed event, an unknown one, an order id it never saw, a full leaderboard, and a tip that
// comes right after a total's read.
import { describe, expect, it } from 'vitest';
import { answerFromView } from '../../src/core/view/answers.ts';
import { LiveView, VIEW_DEFAULTS } from '../../src/core/view/live-view.ts';
import { VIEW_PARTS } from '../../src/core/view/parts.ts';
import { queueTip, T0 } from './contract-examples.ts';

const NOW = Date.parse(T0) + 60_000;
let n = 0;
const envelope = (type: string, data: unknown) => ({
	id: `evt_view${++n}`,
	type,
	created_at: T0,
	data
});
/** A leaderboard row of an unsigned supporter with one tip. */
const row = (name: string, total: number) => ({
	name,
	platform: null,
	platform_user_id: null,
	total,
	tips: 1
});
const emptyQueue = {
	is_paused: false,
	currently_playing: false,
	current_order_id: null,
	items: []
};

describe('the live view', () => {
	it('drops a tip.created whose payload fails its schema and asks to read what a tip keeps', () => {
		const view = new LiveView();
		const out = view.apply(envelope('tip.created', { tip: { order_id: 3 } }), NOW);
		expect(out.outcome).toBe('malformed');
		expect(out.error).toMatch(/tip/);
		expect(out.reread.sort()).toEqual(['goals', 'leaderboard', 'tts']);
	});

	it('reads a queue again for an unknown event of its family, and ignores other families', () => {
		const view = new LiveView();
		expect(view.apply(envelope('queue.tts.shuffled', {}), NOW)).toEqual({
			outcome: 'ignored',
			reread: ['tts', 'ttsHistory']
		});
		expect(
			view.apply(envelope('overlay.celebration', { overlay_id: null, widget_id: null }), NOW)
		).toEqual({ outcome: 'ignored', reread: [] });
		expect(view.apply(envelope('stream.raided', {}), NOW)).toEqual({
			outcome: 'ignored',
			reread: []
		});
	});

	it('reads the TTS queue again when audio is ready for a tip it never saw', () => {
		const view = new LiveView();
		view.applySnapshot('tts', emptyQueue, NOW);
		const out = view.apply(
			envelope('tip.tts_ready', { order_id: 'tip_9_x', tts_url: 'https://cdn.example.com/a.mp3' }),
			NOW
		);
		expect(out).toEqual({ outcome: 'applied', reread: ['tts'] });
	});

	it('adds a new supporter to a board shorter than its depth, and reads a full one again', () => {
		const view = new LiveView({ leaderboardLimit: 1, leaderboardDepth: 1 });
		view.applySnapshot('leaderboard', { supporters: [] }, NOW - 10_000);
		const first = { ...queueTip(), queued_at: new Date(NOW).toISOString() };
		expect(view.apply(envelope('tip.created', { tip: first }), NOW).reread).toEqual([]);
		expect(view.supporters()).toEqual([
			{ name: 'Ada', platform: 'twitch', platform_user_id: '123456', total: 5, tips: 1 }
		]);
		const other = { ...first, order_id: 'tip_2_b', platform_user_id: '99', name: 'Bea' };
		expect(view.apply(envelope('tip.created', { tip: other }), NOW).reread).toEqual([
			'leaderboard'
		]);
		expect(view.supporters()).toBeNull();
	});

	it('answers the served rows while supporters outside the kept ones cannot have reached them', () => {
		const view = new LiveView({ leaderboardLimit: 1, leaderboardDepth: 2 });
		view.applySnapshot('leaderboard', { supporters: [row('Ann', 10), row('Bo', 5)] }, NOW - 10_000);
		const outsider = (order: string, amount: number) => ({
			...queueTip(),
			order_id: order,
			name: 'Zed',
			platform: null,
			platform_user_id: null,
			amount,
			queued_at: new Date(NOW).toISOString()
		});
		// Zed had at most 5 (Bo's total, or Bo would not be above): 5 + 4 stays below Ann's 10.
		expect(
			view.apply(envelope('tip.created', { tip: outsider('tip_5_z', 4) }), NOW).reread
		).toEqual([]);
		expect(view.supporters()).toEqual([row('Ann', 10)]);
		// 9 + 2 may pass Ann: only a read can tell.
		expect(
			view.apply(envelope('tip.created', { tip: outsider('tip_6_z', 2) }), NOW).reread
		).toEqual(['leaderboard']);
		expect(view.supporters()).toBeNull();
	});

	it('does not say who leads once a tip ties two supporters at the last served row', () => {
		const view = new LiveView({ leaderboardLimit: 1, leaderboardDepth: 2 });
		view.applySnapshot('leaderboard', { supporters: [row('Ann', 5), row('Bo', 3)] }, NOW - 10_000);
		const tip = {
			...queueTip(),
			name: 'Bo',
			platform: null,
			platform_user_id: null,
			amount: 2,
			queued_at: new Date(NOW).toISOString()
		};
		// The upstream orders equal totals its own way (docs/upstream.md does not say how).
		expect(view.apply(envelope('tip.created', { tip }), NOW).reread).toEqual(['leaderboard']);
		expect(view.supporters()).toBeNull();
	});

	it('reads the board again once a tip ties two served supporters, where a page’s cut may fall, and answers from that read', () => {
		const view = new LiveView({ leaderboardLimit: 3, leaderboardDepth: 5 });
		const board = [row('Ann', 9), row('Bo', 5), row('Cy', 3)];
		view.applySnapshot('leaderboard', { supporters: board }, NOW - 10_000);
		const tip = (name: string, amount: number, at = NOW) => ({
			...queueTip(),
			order_id: `tip_7${++n}_t`,
			name,
			platform: null,
			platform_user_id: null,
			amount,
			queued_at: new Date(at).toISOString()
		});
		// Cy's 2 makes Bo and Cy equal: a page of two rows could show either second.
		expect(view.apply(envelope('tip.created', { tip: tip('Cy', 2) }), NOW).reread).toEqual([
			'leaderboard'
		]);
		expect(answerFromView(view, 'leaderboard', {}, { limit: 2 })).toBeNull();
		// The read orders them; a tip that ties nobody then needs none.
		const upstream = [row('Ann', 9), row('Cy', 5), row('Bo', 5)];
		view.applySnapshot('leaderboard', { supporters: upstream }, NOW);
		expect(answerFromView(view, 'leaderboard', {}, { limit: 2 })).toEqual({
			supporters: upstream.slice(0, 2)
		});
		expect(
			view.apply(envelope('tip.created', { tip: tip('Ann', 1, NOW + 5_000) }), NOW + 5_000).reread
		).toEqual([]);
	});

	it('does not add a tip that came right after a goal read landed: it reads again', () => {
		const view = new LiveView();
		const goal = {
			enabled: true,
			title: 'Mic',
			amount: 100,
			starts_at: null,
			ends_at: null,
			current: 5
		};
		view.beginRead('goals', NOW - 500);
		view.applySnapshot('goals', { o_1a2b3c4d: goal }, NOW - 200);
		const tip = { ...queueTip(), queued_at: new Date(NOW).toISOString() };
		expect(view.apply(envelope('tip.created', { tip }), NOW).reread).toEqual(['goals']);
		expect(view.goals.get('o_1a2b3c4d')?.current).toBe(5);
		// Read again once the second after that answer is over: tips until then are all in it.
		expect(view.rereadAt('goals', NOW)).toBe(NOW - 200 + VIEW_DEFAULTS.doubtMs);
		expect(view.rereadAt('goals', NOW + 5000)).toBe(NOW + 5000);
		expect(view.rereadAt('tts', NOW)).toBe(NOW);
		const later = { ...tip, order_id: 'tip_3_c' };
		expect(view.apply(envelope('tip.created', { tip: later }), NOW + 5000).reread).toEqual([]);
		expect(view.goals.get('o_1a2b3c4d')?.current).toBe(10);
	});

	it('answers a part only while sure of it: not after an event it could not apply, nor a gap', () => {
		const view = new LiveView();
		view.applySnapshot('tts', emptyQueue, NOW);
		expect(answerFromView(view, 'ttsQueue', {}, {})).toEqual(emptyQueue);
		view.apply(
			envelope('tip.tts_ready', { order_id: 'tip_9_x', tts_url: 'https://cdn.example.com/a.mp3' }),
			NOW
		);
		expect(view.sure('tts')).toBe(false);
		expect(answerFromView(view, 'ttsQueue', {}, {})).toBeNull();
		view.beginRead('tts', NOW);
		view.applySnapshot('tts', emptyQueue, NOW);
		expect(view.sure('tts')).toBe(true);
		view.gap();
		expect(VIEW_PARTS.filter((p) => view.sure(p))).toEqual([]);
	});

	it('leaves to the upstream what the view does not keep: older pages, deeper ones, unknown names', () => {
		const view = new LiveView({ historyDepth: 2, leaderboardLimit: 3 });
		view.applySnapshot('ttsHistory', { tips: [], has_more: false }, NOW);
		view.applySnapshot('counters', { counters: [] }, NOW);
		view.applySnapshot('leaderboard', { supporters: [] }, NOW);
		view.applySnapshot('media', { ...emptyQueue, visible: false }, NOW);
		expect(answerFromView(view, 'ttsHistory', {}, { limit: 2 })).toEqual({
			tips: [],
			has_more: false,
			next_cursor: null
		});
		expect(answerFromView(view, 'ttsHistory', {}, { limit: 3 })).toBeNull();
		expect(answerFromView(view, 'ttsHistory', {}, { limit: 2, before: 'tip_1_a' })).toBeNull();
		expect(answerFromView(view, 'mediaHistory', {}, { limit: 2 })).toBeNull();
		expect(answerFromView(view, 'counterRead', { name: 'deaths' }, {})).toBeNull();
		expect(answerFromView(view, 'leaderboard', {}, { limit: 3 })).toEqual({ supporters: [] });
		expect(answerFromView(view, 'leaderboard', {}, { limit: 4 })).toBeNull();
		expect(answerFromView(view, 'mediaStatus', {}, {})).toEqual({
			is_paused: false,
			currently_playing: false,
			current_order_id: null,
			visible: false
		});
		expect(answerFromView(view, 'me', {}, {})).toBeNull();
	});
});
