// One way to keep a streamer's state (docs/architecture.md, "Kept state"): settings, moderation and
// chat each describe their kind here (its schemas, which entries are open, how long closed ones are
// kept) and change it through a KeptStore, files in single mode (file-kept.ts), PostgreSQL in
// hosted mode (src/hosted/kept-store.ts). A kind's state is a small meta kept whole, and entries
// kept apart by key, so a change costs what it touches: a change sees the meta, the open entries
// and those it names, runs on a copy, and only what it changed is stored. Changes of a streamer's
// kind run one at a time (on every instance) and are stored durably before they are answered; the
// messages a change tells are published once it is stored (hosted: in its own transaction, so heard
// only once committed, on every instance).
import type { z } from 'zod/mini';
import type { LiveMessage } from '../../contract/index.ts';
import type { PushSubscriptions } from '../live/push-channel.ts';

/** What a store needs to know of a kind of state. */
export interface Kind<M extends object, E> {
	/** Its name: in log lines, the file's messages and the hosted rows' `kind`. */
	name: string;
	meta: z.ZodMiniType<M>;
	entry: z.ZodMiniType<E>;
	/** The meta of a streamer with nothing stored. */
	empty(): M;
	/** Hosted: the meta in place of a stored one that cannot be read (absent: the empty one). */
	unreadable?(stored: unknown): M;
	/** Whether an entry is open: read with every read (a closed one only when named); absent: none. */
	open?(e: E): boolean;
	/** When an entry may be dropped (ms since 1970); null: kept. */
	dropAt(e: E): number | null;
	/**
	 * Hosted: the meta may be kept in memory while the instance listens, as every change of it
	 * tells a message of this type (on any instance, the kept meta is dropped when it is heard).
	 */
	metaTold?: LiveMessage['type'];
}

/** A kind's state as a change sees it: the meta, and the entries loaded for it. */
export type Kept<M extends object, E> = M & { entries: Record<string, E> };

/**
 * A change: returns its result; `tell(message)` has it published once the change is stored (each
 * message once). A change that leaves the state as it was stores nothing. It may add entries and
 * change those it sees, never remove one (the stores drop those past keeping). A change
 * that throws stores nothing.
 */
export type Change<M extends object, E, T> = (
	state: Kept<M, E>,
	tell: (message: LiveMessage) => void
) => T;

export interface KeptStore<M extends object, E> {
	readonly kind: Kind<M, E>;
	/** The meta and the open entries, with those of `keys` whatever their state. */
	read(streamer: string, keys?: readonly string[]): Promise<Kept<M, E>>;
	/** Runs `change` on what read(streamer, keys) gives, after the streamer's changes before it. */
	update<T>(streamer: string, change: Change<M, E, T>, keys?: readonly string[]): Promise<T>;
	/**
	 * Stores each entry whose key has none, changing nothing else and telling nothing, and answers
	 * the stored entry of every key: the first writer wins, on every instance. Hosted: one statement,
	 * outside the streamer's line of changes (an entry made once needs no lock).
	 */
	add(streamer: string, entries: readonly [string, E][]): Promise<Record<string, E>>;
	/** The streamers with open entries (hosted: the entries past keeping are dropped first). */
	streamers(): Promise<string[]>;
	/** The push channel it publishes on (src/server/live/push-channel.ts). */
	readonly push: PushSubscriptions;
	close?(): Promise<void>;
}

/** What a change did: its value, the meta if it changed, the entries it added or changed. */
export interface Applied<M, E, T> {
	value: T;
	meta: M | null;
	entries: [string, E][];
	told: LiveMessage[];
}

/** The state's meta: all but its entries. */
export function metaOf<M extends object, E>(state: Kept<M, E>): M {
	const { entries: _, ...meta } = state;
	return meta as unknown as M;
}

/** Runs a change on a copy of `was`: what it changed, to store. */
export function applyChange<M extends object, E, T>(
	was: Kept<M, E>,
	change: Change<M, E, T>
): Applied<M, E, T> {
	const state = structuredClone(was);
	const told = new Map<string, LiveMessage>();
	const value = change(state, (m) => void told.set(JSON.stringify(m), m));
	const meta = metaOf(state);
	const metaChanged = JSON.stringify(meta) !== JSON.stringify(metaOf(was));
	const entries = Object.entries(state.entries).filter(
		([key, e]) => JSON.stringify(e) !== JSON.stringify(was.entries[key])
	);
	return { value, meta: metaChanged ? meta : null, entries, told: [...told.values()] };
}

/** Whether a change stored anything. */
export const changed = (a: Applied<unknown, unknown, unknown>) =>
	a.meta !== null || a.entries.length > 0;

/** Whether an entry is past keeping at `now`. */
export function isPast<E>(kind: Kind<object, E>, e: E, now: number): boolean {
	const at = kind.dropAt(e);
	return at !== null && at < now;
}
