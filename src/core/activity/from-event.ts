// What one heard event changes in the Activity (docs/activity.md): the updates of the entries it
// makes or changes. A tip's events (created, started, finished, skipped, removed, released,
// replayed) keep the tip's one entry; every other event is an entry of its own, keyed by the
// event's id. An event of a type the kit does not know is kept as `unknown` by its type.
import type { ActivityEntry } from '../../contract/activity.ts';
import { EVENT_CATALOG, parseEventWith, type KnownEvent } from '../../contract/index.ts';
import {
	tipOutcome,
	tipUpdate,
	videoOutcome,
	videoUpdate,
	type EntryUpdate,
	type Via
} from './entries.ts';

interface Heard {
	id: string;
	type: string;
	created_at: string;
	data: Record<string, unknown>;
}

export type EventUpdates = { ok: true; updates: EntryUpdate[] } | { ok: false; error: string };

/** The event's updates; a known type with a payload that does not parse is refused. */
export function eventUpdates(event: Heard, via: Via): EventUpdates {
	const parsed = parseEventWith(EVENT_CATALOG, event);
	if (!parsed.ok) return parsed;
	const at = event.created_at;
	const own = (fields: OwnFields): EntryUpdate[] => [ownEntry(event, via, fields)];
	if (!parsed.known) return { ok: true, updates: own({ kind: 'unknown', type: event.type }) };
	return { ok: true, updates: knownUpdates(parsed.event, via, at, own) };
}

type OwnFields = DistributiveOmit<ActivityEntry, 'id' | 'at' | 'via' | 'updated_at'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function ownEntry(event: Heard, via: Via, fields: OwnFields): EntryUpdate {
	const base = { id: event.id, at: event.created_at, via, updated_at: event.created_at };
	return {
		key: event.id,
		make: (prev) => (prev ? null : ({ ...base, ...fields } as ActivityEntry))
	};
}

function knownUpdates(
	e: KnownEvent,
	via: Via,
	at: string,
	own: (fields: OwnFields) => EntryUpdate[]
): EntryUpdate[] {
	const tts = ttsUpdates(e, via, at);
	if (tts) return tts;
	const media = mediaUpdates(e, via, at);
	if (media) return media;
	switch (e.type) {
		case 'counter.updated':
			return own({
				kind: 'counter',
				name: e.data.counter.name,
				value: e.data.counter.value,
				previous: e.data.previous
			});
		case 'counter.deleted':
			return own({ kind: 'counter', name: e.data.name, value: null, previous: null });
		case 'overlay.tip_goal.updated': {
			const g = e.data.tip_goal;
			return own({
				kind: 'goal',
				overlay_id: e.data.overlay_id,
				title: g.title ?? null,
				current: g.current,
				amount: g.amount ?? null
			});
		}
		case 'overlay.celebration':
			return own({
				kind: 'celebration',
				overlay_id: e.data.overlay_id,
				widget_id: e.data.widget_id
			});
		case 'overlay.reload':
			return own({ kind: 'overlay', overlay_id: e.data.overlay_id });
		case 'tipping.opened':
		case 'tipping.closed':
			return own({ kind: 'tipping', accepting: e.type === 'tipping.opened' });
		case 'chat.command':
			return own(commandFields(e.data));
		default:
			return own({ kind: 'other', type: e.type });
	}
}

function ttsUpdates(e: KnownEvent, via: Via, at: string): EntryUpdate[] | null {
	switch (e.type) {
		case 'tip.created':
			return [tipUpdate(e.data.tip, 'queued', via, at)];
		case 'queue.tts.started':
			return [tipUpdate(e.data.tip, 'playing', via, at)];
		case 'queue.tts.finished':
			return [tipUpdate(e.data.tip, 'read', via, at)];
		case 'queue.tts.replayed':
			return [tipUpdate(e.data.tip, 'queued', via, at)];
		case 'queue.tts.skipped':
			return [tipOutcome(e.data.order_id, 'skipped', at)];
		case 'queue.tts.removed':
			return [tipOutcome(e.data.order_id, 'removed', at)];
		case 'queue.tts.released':
			return [tipOutcome(e.data.order_id, 'released', at)];
		case 'tip.tts_ready':
			return [];
		default:
			return null;
	}
}

function mediaUpdates(e: KnownEvent, via: Via, at: string): EntryUpdate[] | null {
	switch (e.type) {
		case 'queue.media.added':
			return [videoUpdate(e.data.media, 'queued', via, at)];
		case 'queue.media.started':
			return [videoUpdate(e.data.media, 'playing', via, at)];
		case 'queue.media.finished':
			return [videoUpdate(e.data.media, 'played', via, at)];
		case 'queue.media.skipped':
			return [videoOutcome(e.data.order_id, 'skipped', at)];
		case 'queue.media.removed':
			return [videoOutcome(e.data.order_id, 'removed', at)];
		case 'queue.media.released':
			return [videoOutcome(e.data.order_id, 'released', at)];
		default:
			return queueChange(e, via, at);
	}
}

const QUEUE_CHANGES = {
	'queue.tts.paused': ['tts', 'paused'],
	'queue.tts.resumed': ['tts', 'resumed'],
	'queue.tts.cleared': ['tts', 'cleared'],
	'queue.media.paused': ['media', 'paused'],
	'queue.media.resumed': ['media', 'resumed']
} as const;

function queueChange(e: KnownEvent, via: Via, at: string): EntryUpdate[] | null {
	const base = { id: e.id, at: e.created_at, via, updated_at: at };
	let change: ActivityEntry | null = null;
	if (e.type === 'queue.media.visibility')
		change = {
			...base,
			kind: 'queue',
			queue: 'media',
			change: e.data.visible ? 'shown' : 'hidden'
		};
	else if (Object.hasOwn(QUEUE_CHANGES, e.type)) {
		const [queue, what] = QUEUE_CHANGES[e.type as keyof typeof QUEUE_CHANGES];
		change = { ...base, kind: 'queue', queue, change: what };
	}
	if (!change) return null;
	const entry = change;
	return [{ key: e.id, make: (prev) => (prev ? null : entry) }];
}

/** A chat command's run (docs/upstream.md, chat.command), read field by field: text as text. */
function commandFields(data: Record<string, unknown>): OwnFields {
	const text = (v: unknown) => (typeof v === 'string' ? v : '');
	const user = (typeof data.user === 'object' && data.user !== null ? data.user : {}) as Record<
		string,
		unknown
	>;
	return {
		kind: 'command',
		command: text(data.command),
		trigger: text(data.trigger),
		args: text(data.args),
		platform: text(data.platform),
		name: text(user.display_name) || text(user.login),
		login: text(user.login),
		role: text(user.role)
	};
}
