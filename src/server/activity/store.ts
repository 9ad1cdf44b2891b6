// Where the Activity is kept (docs/activity.md): a store of its own, as the kept shape
// (store/kept.ts) holds a small meta and entries by key, not a list of 100,000 read newest first
// with a search. Single mode: day files (file-store.ts); hosted: PostgreSQL
// (src/hosted/activity-store.ts). Each written once.
import type { ActivityEntry } from '../../contract/activity.ts';
import type { EntryUpdate } from '../../core/activity/entries.ts';
import type { ListFilter } from '../../core/activity/query.ts';

/** One heard thing: its event's id (null: recovered from a read, no event) and its updates. */
export interface Heard {
	eventId: string | null;
	updates: readonly EntryUpdate[];
}

export interface ActivityStore {
	/**
	 * Applies each heard thing once (an event id already applied changes nothing) and answers the
	 * entries it made or changed. A streamer's applies run one at a time.
	 */
	apply(streamer: string, heard: readonly Heard[], now: number): Promise<ActivityEntry[]>;
	/** The stored entries of these keys (absent: none). */
	get(streamer: string, keys: readonly string[]): Promise<Map<string, ActivityEntry>>;
	/** Newest first, at most `limit` of the filter. */
	list(streamer: string, filter: ListFilter): Promise<ActivityEntry[]>;
	/** The stream's start as the streamer set it (ISO), or null. */
	start(streamer: string): Promise<string | null>;
	setStart(streamer: string, at: string | null): Promise<void>;
	/** Deletes every entry of the streamer (and the event ids heard): how many entries went. */
	delete(streamer: string): Promise<number>;
	/** Drops what is older than `before` (ms), every streamer's. */
	prune(before: number): Promise<void>;
	close(): Promise<void>;
}

/** The Activity is kept this many days unless ACTIVITY_RETENTION_DAYS says otherwise. */
export const DEFAULT_RETENTION_DAYS = 30;
