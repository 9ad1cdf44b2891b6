// A streamer's two keys, each in a table of its own:
// - the overlay key (`overlay_keys`): the secret in their overlay URLs that says, in each /token and
//   /api request, which streamer the request is for;
// - the control key (`control_keys`): the secret of their dock URL, for /control only (skip,
//   remove, pause, replay). Apart from the overlay key because overlay URLs do get shown on
//   stream by accident; one kind never resolves as the other (another table, another sealing).
// The database keeps each key twice: as a keyed hash (crypto.ts lookupHash), to find it by, and
// sealed (encrypted), so their own dashboard can show it again. A streamer has one live key of
// each kind; "New overlay key" or "New control key" turns the old one off, Disconnect both.
//
// Finding the streamer of an overlay key (`resolveKey`) searches under every secret's hash (so a
// rotation of SECRET_KEY keeps old keys working) in one indexed query. All it keeps in memory is
// what cannot change (`verified`) and the query's SQL. A known overlay key is then served from
// memory by key-cache.ts, until a key of its streamer is turned off (`turnOff` announces it to
// every instance, in its transaction).
import { CompiledQuery } from 'kysely';
import { LRUCache } from 'lru-cache';
import { KEY_FORMAT } from '../contract/keys.ts';
import { randomToken, sameSecret, type SecretBox } from './crypto.ts';
import type { Db } from './db.ts';
import type { StoreContext } from './store-context.ts';

/** What a key in a request resolves to. */
export type KeyLookup = { streamerId: string } | { replaced: true } | null;

export type KeyKind = 'overlay' | 'control';

/** Each kind's table (the same columns, db.ts KeysTable). */
const TABLE = { overlay: 'overlay_keys', control: 'control_keys' } as const;

/** The secret box's context for a streamer's sealed key: it opens only on their row and kind. */
const sealedAs = (kind: KeyKind, streamerId: string) => `${kind}_key:${streamerId}`;

/** Enough for every live key of a large deployment; past it the least recently used go first. */
const VERIFIED_MAX = 100_000;

/**
 * Key rows whose sealed key this process opened and found equal to a key presented with their
 * lookup hash, per kind: hash -> streamer id. A row's hash and sealed key never change (only its
 * `replaced_at`, read on every lookup), and the hash is keyed (HMAC-SHA256 under SECRET_KEY) over
 * a 256-bit random key, so a later key with the same hash is the same key: opening and comparing
 * it again (AES-GCM, a constant-time compare) would only repeat the answer. Holds no secret.
 */
const verified: Record<KeyKind, LRUCache<string, string>> = {
	overlay: new LRUCache({ max: VERIFIED_MAX }),
	control: new LRUCache({ max: VERIFIED_MAX })
};

/** The lookup's SQL by kind and number of hashes (one per secret), built by kysely once. */
const lookupSql = new Map<string, string>();

interface KeyRow {
	hash: string;
	streamer_id: string;
	sealed: string;
	replaced_at: Date | null;
}

export async function resolveKey(
	db: Db,
	box: SecretBox,
	kind: KeyKind,
	key: string
): Promise<KeyLookup> {
	// Both kinds have the overlay key's format (16 to 128 of A-Z a-z 0-9 _ -).
	if (!KEY_FORMAT.test(key)) return null;
	const hashes = box.lookupHashes(key);
	const { rows } = await db.executeQuery<KeyRow>(
		CompiledQuery.raw(sqlFor(db, kind, hashes.length), hashes)
	);
	const seen = verified[kind];
	for (const row of rows) {
		if (seen.get(row.hash) !== row.streamer_id) {
			let plain: string;
			try {
				plain = box.open(row.sealed, sealedAs(kind, row.streamer_id));
			} catch {
				continue;
			}
			if (!sameSecret(plain, key)) continue;
			seen.set(row.hash, row.streamer_id);
		}
		return row.replaced_at ? { replaced: true } : { streamerId: row.streamer_id };
	}
	return null;
}

function sqlFor(db: Db, kind: KeyKind, n: number): string {
	let text = lookupSql.get(`${kind}:${n}`);
	if (text === undefined) {
		text = db
			.selectFrom(TABLE[kind])
			.select(['hash', 'streamer_id', 'sealed', 'replaced_at'])
			.where(
				'hash',
				'in',
				Array.from({ length: n }, () => '')
			)
			.compile().sql;
		lookupSql.set(`${kind}:${n}`, text);
	}
	return text;
}

/** The keys of one kind of the store's streamers (store.ts). */
export class StreamerKeys {
	private readonly table: (typeof TABLE)[KeyKind];

	constructor(
		private readonly ctx: StoreContext,
		private readonly kind: KeyKind
	) {
		this.table = TABLE[kind];
	}

	/** The streamer's live key, for their own dashboard; null after Disconnect. */
	async live(streamerId: string, db: Db = this.ctx.db): Promise<string | null> {
		const row = await db
			.selectFrom(this.table)
			.select(['hash', 'sealed'])
			.where('streamer_id', '=', streamerId)
			.where('replaced_at', 'is', null)
			.orderBy('created_at', 'desc')
			.executeTakeFirst();
		return row ? this.ctx.box.open(row.sealed, sealedAs(this.kind, streamerId)) : null;
	}

	/** "New overlay key" or "New control key": the old one stops at once, on every instance. */
	async replace(streamerId: string): Promise<string> {
		return this.ctx.db.transaction().execute(async (tx) => {
			// Two replacements at once (two tabs, two instances) queue on the streamer's row, so
			// the second turns off the first one's key: one live key, never two.
			await lockStreamer(tx, streamerId);
			await this.turnOff(tx, streamerId, this.ctx.now());
			return this.insert(tx, streamerId);
		});
	}

	/**
	 * The streamer's live key, made now if they are connected and have none: a streamer who signed
	 * in before control keys existed gets theirs when their dashboard first shows it. Null: they
	 * are not connected and have no live key.
	 */
	async liveOrNew(streamerId: string): Promise<string | null> {
		const live = await this.live(streamerId);
		if (live) return live;
		return this.ctx.db.transaction().execute(async (tx) => {
			const status = await lockStreamer(tx, streamerId);
			const again = await this.live(streamerId, tx);
			return again ?? (status === 'connected' ? this.insert(tx, streamerId) : null);
		});
	}

	/** The streamer a key of this kind belongs to (`resolveKey`). */
	resolve(key: string): Promise<KeyLookup> {
		return resolveKey(this.ctx.db, this.ctx.box, this.kind, key);
	}

	/** Within a sign-in's transaction `tx`: a new key, unless the streamer has a live one. */
	async ensureLive(tx: Db, streamerId: string): Promise<void> {
		const live = await tx
			.selectFrom(this.table)
			.select('hash')
			.where('streamer_id', '=', streamerId)
			.where('replaced_at', 'is', null)
			.executeTakeFirst();
		if (!live) await this.insert(tx, streamerId);
	}

	/** Within the transaction `tx`: the streamer's live key stops working from `at`. */
	async turnOff(tx: Db, streamerId: string, at: Date): Promise<void> {
		await tx
			.updateTable(this.table)
			.set({ replaced_at: at })
			.where('streamer_id', '=', streamerId)
			.where('replaced_at', 'is', null)
			.execute();
		await this.ctx.announceKeys?.(tx, streamerId);
	}

	private async insert(tx: Db, streamerId: string): Promise<string> {
		const key = randomToken();
		await tx
			.insertInto(this.table)
			.values({
				hash: this.ctx.box.lookupHash(key),
				streamer_id: streamerId,
				sealed: this.ctx.box.seal(key, sealedAs(this.kind, streamerId))
			})
			.execute();
		return key;
	}
}

/** Within the transaction `tx`: holds the streamer's row until it ends; their status. */
async function lockStreamer(tx: Db, streamerId: string): Promise<string | undefined> {
	const row = await tx
		.selectFrom('streamers')
		.select('status')
		.where('id', '=', streamerId)
		.forUpdate()
		.executeTakeFirst();
	return row?.status;
}
