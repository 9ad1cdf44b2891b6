// The dock's model (widgets/dock/dock-model.ts) on sequences of realtime events over a snapshot:
// what the streamer sees in Now playing, Up next, Recent and the controls, and when the dock must
// read a snapshot again because an event cannot be applied with certainty (docs/upstream.md).
import { describe, expect, it } from 'vitest';
import {
	EVENT_CATALOG,
	parseEventWith,
	type KnownEvent,
	type QueueMediaItem,
	type QueueTip
} from '../../src/contract/index.ts';
import {
	applyEvent,
	applySnapshot,
	emptyModel,
	recentRows,
	type DockModel,
	type Snapshot
} from '../../widgets/dock/dock-model.ts';
import { queueTip } from './contract-examples.ts';

const T0 = Date.parse('2026-12-01T20:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

function tip(n: number, extra: Partial<QueueTip> = {}): QueueTip {
	return {
		...queueTip(),
		order_id: `tip_${n}_aa`,
		name: `Viewer ${n}`,
		amount: n,
		message: `message ${n}`,
		tts_url: null,
		platform: null,
		platform_user_id: null,
		queued_at: at(n),
		...extra
	};
}

function video(n: number): QueueMediaItem {
	return {
		order_id: `med_${n}_bb`,
		donor_name: `Viewer ${n}`,
		media_url: `https://www.youtube.com/watch?v=video${n}`,
		media_start_time: 0,
		video_title: `Video ${n}`,
		video_thumbnail: null,
		video_duration: 120,
		platform: 'youtube',
		requested_via: 'tip',
		is_replay: false,
		queued_at: at(n)
	};
}

let nextEventId = 1;
/** An event as the realtime client hands it over: parsed with the contract's schemas. */
function event(type: string, data: unknown, created = at(100)): KnownEvent {
	const raw = { id: `evt_${nextEventId++}`, type, created_at: created, data };
	const parsed = parseEventWith(EVENT_CATALOG, raw);
	if (!parsed.ok || !parsed.known) throw new Error(`bad test event ${type}`);
	return parsed.event;
}

/** A dock that read empty queues, empty histories and open tipping. */
function loaded(): DockModel {
	let m = emptyModel();
	const queue = { is_paused: false, currently_playing: false, current_order_id: null, items: [] };
	m = applySnapshot(m, { snapshot: 'tts', body: queue });
	m = applySnapshot(m, { snapshot: 'media', body: { ...queue, visible: true } });
	m = applySnapshot(m, {
		snapshot: 'ttsHistory',
		body: { tips: [] }
	});
	m = applySnapshot(m, {
		snapshot: 'mediaHistory',
		body: { media: [] }
	});
	return applySnapshot(m, { snapshot: 'tipping', body: { accepting: true } });
}

/** The tip as the token endpoint hands it to the dock: decided (read aloud). */
const decided = (t: QueueTip): QueueTip => ({
	...t,
	moderation: { outcome: 'read', message: 'shown', rule: null, by: 'rules' }
});

/** A dock that read these tips, decided, in its TTS queue. */
function loadedWith(tips: QueueTip[]): DockModel {
	const queue = { is_paused: false, currently_playing: false, current_order_id: null };
	return applySnapshot(loaded(), {
		snapshot: 'tts',
		body: { ...queue, items: tips.map(decided) }
	});
}

/** Applies the events in order; the re-reads they asked for, in order, without repeats. */
function run(model: DockModel, events: KnownEvent[]): { model: DockModel; reread: Snapshot[] } {
	const reread: Snapshot[] = [];
	for (const e of events) {
		const applied = applyEvent(model, e);
		model = applied.model;
		for (const s of applied.reread) if (!reread.includes(s)) reread.push(s);
	}
	return { model, reread };
}

const ids = (items: { order_id: string }[] | undefined) => items?.map((i) => i.order_id);

describe('the dock model', () => {
	it('shows a new tip in Up next (undecided, its message withheld, the queue read for it), then as Now playing', () => {
		const a = tip(1);
		const b = tip(2);
		let r = run(loaded(), [event('tip.created', { tip: a }), event('tip.created', { tip: b })]);
		expect(ids(r.model.tts?.items)).toEqual([a.order_id, b.order_id]);
		expect(r.model.tts?.items.map((t) => [t.message, t.moderation?.outcome])).toEqual([
			[null, 'pending'],
			[null, 'pending']
		]);
		expect(r.reread).toEqual(['tts']);
		const read = applySnapshot(r.model, {
			snapshot: 'tts',
			body: {
				is_paused: false,
				currently_playing: false,
				current_order_id: null,
				items: [decided(a), decided(b)]
			}
		});
		r = run(read, [event('queue.tts.started', { order_id: a.order_id, tip: a }, at(50))]);
		expect(r.model.tts?.current).toBe(a.order_id);
		expect(r.model.tts?.playing?.name).toBe('Viewer 1');
		expect(r.model.tts?.playing?.message).toBe('message 1');
		expect(r.model.tts?.playing?.moderation?.outcome).toBe('read');
		expect(r.model.tts?.startedAt).toBe(at(50));
		expect(ids(r.model.tts?.items)).toEqual([b.order_id]);
		expect(r.reread).toEqual([]);
	});

	it('takes a finished tip off Now playing and puts it at the top of Recent', () => {
		const a = tip(1);
		const played = { ...a, played_at: at(60) };
		const r = run(loadedWith([a]), [
			event('queue.tts.started', { order_id: a.order_id, tip: a }),
			event('queue.tts.finished', { order_id: a.order_id, tip: played })
		]);
		expect(r.model.tts?.current).toBeNull();
		expect(r.model.tts?.items).toEqual([]);
		expect(recentRows(r.model).map((row) => row.item.order_id)).toEqual([a.order_id]);
		expect(r.reread).toEqual([]);
	});

	it('takes a skipped or removed tip away without adding it to Recent', () => {
		const a = tip(1);
		const b = tip(2);
		const r = run(loadedWith([a, b]), [
			event('queue.tts.started', { order_id: a.order_id, tip: a }),
			event('queue.tts.skipped', { order_id: a.order_id }),
			event('queue.tts.removed', { order_id: b.order_id })
		]);
		expect(r.model.tts?.current).toBeNull();
		expect(r.model.tts?.items).toEqual([]);
		expect(recentRows(r.model)).toEqual([]);
		expect(r.reread).toEqual([]);
	});

	it('lists a replayed tip in Up next as a new item, undecided until the queue is read', () => {
		const a = tip(1);
		const again = tip(9, { is_replay: true, name: a.name, message: a.message });
		const r = run(loadedWith([a]), [event('queue.tts.replayed', { tip: again })]);
		expect(r.model.tts?.items).toEqual([
			decided(a),
			{ ...again, message: null, moderation: { outcome: 'pending', message: 'hidden' } }
		]);
		expect(r.reread).toEqual(['tts']);
	});

	it('follows a video from Up next through Now playing to Recent', () => {
		const v = video(1);
		let r = run(loaded(), [event('queue.media.added', { media: v })]);
		expect(ids(r.model.media?.items)).toEqual([v.order_id]);
		r = run(r.model, [event('queue.media.started', { order_id: v.order_id, media: v }, at(70))]);
		expect(r.model.media?.playing?.video_title).toBe('Video 1');
		expect(r.model.media?.startedAt).toBe(at(70));
		r = run(r.model, [
			event('queue.media.finished', { order_id: v.order_id, media: { ...v, played_at: at(190) } })
		]);
		expect(r.model.media?.current).toBeNull();
		expect(recentRows(r.model).map((row) => row.kind)).toEqual(['video']);
	});

	it("gives an event's video the decision the dock read, or reads the media queue for it", () => {
		const v = video(1);
		const held = {
			outcome: 'hold' as const,
			message: 'shown' as const,
			rule: null,
			by: 'rules' as const
		};
		const queue = { is_paused: false, currently_playing: false, current_order_id: null };
		const read = applySnapshot(loaded(), {
			snapshot: 'media',
			body: { ...queue, visible: true, items: [{ ...v, moderation: held }] }
		});
		// The upstream's record again (a duplicate, or refreshed): it stays held, nothing to read.
		let r = run(read, [event('queue.media.added', { media: v })]);
		expect(r.model.media?.items[0].moderation).toEqual(held);
		expect(r.reread).toEqual([]);
		// A new one: checking… until the queue read says.
		r = run(read, [event('queue.media.added', { media: video(2) })]);
		expect(r.model.media?.items[1].moderation?.outcome).toBe('pending');
		expect(r.reread).toEqual(['media']);
		// A finished one goes to Recent as it played: no read for its decision.
		const done = { ...v, played_at: at(200) };
		r = run(read, [event('queue.media.finished', { order_id: v.order_id, media: done })]);
		expect(r.model.mediaHistory?.map((i) => i.order_id)).toEqual([v.order_id]);
		expect(r.reread).toEqual([]);
	});

	it('shows the paused flags, the video player and tipping as the events say', () => {
		const r = run(loaded(), [
			event('queue.tts.paused', { is_paused: true }),
			event('queue.media.paused', { is_paused: true }),
			event('queue.media.visibility', { visible: false }),
			event('tipping.closed', {})
		]);
		expect(r.model.tts?.paused).toBe(true);
		expect(r.model.media?.paused).toBe(true);
		expect(r.model.media?.visible).toBe(false);
		expect(r.model.accepting).toBe(false);
		const back = run(r.model, [
			event('queue.tts.resumed', { is_paused: false }),
			event('queue.media.resumed', { is_paused: false }),
			event('queue.media.visibility', { visible: true }),
			event('tipping.opened', {})
		]);
		expect(back.model.tts?.paused).toBe(false);
		expect(back.model.media?.paused).toBe(false);
		expect(back.model.media?.visible).toBe(true);
		expect(back.model.accepting).toBe(true);
	});

	it('applies the same event twice (a duplicate delivery) with no further change', () => {
		const a = tip(1);
		const created = event('tip.created', { tip: a });
		const started = event('queue.tts.started', { order_id: a.order_id, tip: a });
		const finished = event('queue.tts.finished', {
			order_id: a.order_id,
			tip: { ...a, played_at: at(60) }
		});
		const once = run(loadedWith([a]), [created, started, finished]);
		const twice = run(loadedWith([a]), [created, created, started, started, finished, finished]);
		expect(twice.model.tts).toEqual(once.model.tts);
		expect(twice.model.ttsHistory).toEqual(once.model.ttsHistory);
		expect(twice.reread).toEqual([]);
	});

	it('does not bring back a tip that already left when a late event about it arrives', () => {
		const a = tip(1);
		const r = run(loaded(), [
			event('tip.created', { tip: a }),
			event('queue.tts.removed', { order_id: a.order_id }),
			event('tip.created', { tip: a }),
			event('queue.tts.started', { order_id: a.order_id, tip: a })
		]);
		expect(r.model.tts?.items).toEqual([]);
		expect(r.model.tts?.current).toBeNull();
	});

	it('asks to re-read the queue for an event about an order it never saw', () => {
		for (const type of ['queue.tts.skipped', 'queue.tts.removed', 'queue.tts.released']) {
			const r = run(loaded(), [event(type, { order_id: 'tip_404_zz' })]);
			expect(r.reread, type).toEqual(['tts']);
		}
		const media = run(loaded(), [event('queue.media.removed', { order_id: 'med_404_zz' })]);
		expect(media.reread).toEqual(['media']);
		const ready = run(loaded(), [
			event('tip.tts_ready', { order_id: 'tip_404_zz', tts_url: 'https://cdn.example/a.mp3' })
		]);
		expect(ready.reread).toEqual(['tts']);
	});

	it('asks to re-read when a start shows that the end of the item before was missed', () => {
		const a = tip(1);
		const b = tip(2);
		const r = run(loaded(), [
			event('tip.created', { tip: a }),
			event('tip.created', { tip: b }),
			event('queue.tts.started', { order_id: a.order_id, tip: a }),
			event('queue.tts.started', { order_id: b.order_id, tip: b })
		]);
		expect(r.model.tts?.current).toBe(b.order_id);
		expect(r.reread).toEqual(['tts']);
	});

	it('puts a released claim back in its place in the queue', () => {
		const [a, b] = [tip(1), tip(2)];
		const r = run(loadedWith([a, b]), [
			event('queue.tts.started', { order_id: a.order_id, tip: a }),
			event('queue.tts.released', { order_id: a.order_id })
		]);
		expect(r.model.tts?.current).toBeNull();
		expect(ids(r.model.tts?.items)).toEqual([a.order_id, b.order_id]);
		expect(r.reread).toEqual([]);
	});

	it('empties the TTS queue on cleared', () => {
		const r = run(loaded(), [
			event('tip.created', { tip: tip(1) }),
			event('tip.created', { tip: tip(2) }),
			event('queue.tts.cleared', {})
		]);
		expect(r.model.tts?.items).toEqual([]);
	});

	it('asks for the snapshot when an event comes before the first read', () => {
		const r = run(emptyModel(), [event('tip.created', { tip: tip(1) })]);
		expect(r.reread).toEqual(['tts']);
		expect(r.model.tts).toBeNull();
	});

	it('keeps the start time of the item playing across a re-read, and shows the snapshot otherwise', () => {
		const a = tip(1);
		const b = tip(2);
		const started = run(loaded(), [
			event('tip.created', { tip: a }),
			event('queue.tts.started', { order_id: a.order_id, tip: a }, at(50))
		]).model;
		const snapshot = {
			is_paused: true,
			currently_playing: true,
			current_order_id: a.order_id,
			items: [a, b]
		};
		const reread = applySnapshot(started, { snapshot: 'tts', body: snapshot });
		expect(reread.tts?.startedAt).toBe(at(50));
		expect(reread.tts?.paused).toBe(true);
		expect(ids(reread.tts?.items)).toEqual([b.order_id]);
		// Read mid-play on load: playing, start unknown.
		const fresh = applySnapshot(emptyModel(), { snapshot: 'tts', body: snapshot });
		expect(fresh.tts?.playing?.order_id).toBe(a.order_id);
		expect(fresh.tts?.startedAt).toBeNull();
	});

	it('lists Recent with tips and videos together, most recent first', () => {
		let m = loaded();
		m = applySnapshot(m, {
			snapshot: 'ttsHistory',
			body: {
				tips: [
					{ ...tip(3), played_at: at(30) },
					{ ...tip(1), played_at: at(10) }
				]
			}
		});
		m = applySnapshot(m, {
			snapshot: 'mediaHistory',
			body: { media: [{ ...video(2), played_at: at(20) }] }
		});
		expect(recentRows(m).map((r) => r.item.order_id)).toEqual(['tip_3_aa', 'med_2_bb', 'tip_1_aa']);
	});
});
