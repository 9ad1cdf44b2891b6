// A streamer's overlay key: the secret in their overlay URLs that says, in each /token and /api
// request, which streamer the request is for. The database keeps each key twice: as a keyed hash
// (crypto.ts lookupHash), to find it by, and sealed (encrypted), so their own dashboard can show
// it again. A streamer has one live key; "New overlay key" and Disconnect turn the old one off.
//
// Finding the streamer of a key (`resolveOverlayKey`) is hosted mode's most frequent query. It
// searches under every secret's hash (so a rotation of SECRET_KEY keeps old keys working) in one
// indexed query, every time: a key replaced or turned off on any instance is refused at once by
// every other. All it keeps in memory is what cannot change (`verified`) and the query's SQL.
import { CompiledQuery } from 'kysely';
import { OVERLAY_KEY } from '../server/config.ts';
import { randomToken, sameSecret, type SecretBox } from './crypto.ts';
import type { Db } from './db.ts';
import type { StoreContext } from './store-context.ts';

/** What an overlay key in a request resolves to. */
export type KeyLookup = { streamerId: string } | { replaced: true } | null;

/** The secret box's context for a streamer's sealed key: it opens only on their row. */
const sealedAs = (streamerId: string) => `overlay_key:${streamerId}`;

/**
 * Overlay key rows whose sealed key this process opened and found equal to a key presented with
 * their lookup hash: hash -> streamer id. A row's hash and sealed key never change (only its
 * `replaced_at`, read on every lookup), and the hash is keyed (HMAC-SHA256 under SECRET_KEY) over
 * a 256-bit random key, so a later key with the same hash is the same key: opening and comparing
 * it again (AES-GCM, a constant-time compare) would only repeat the answer. Holds no secret.
 */
const verified = new Map<string, string>();
/** Enough for every live key of a large deployment; past it the map starts over. */
const VERIFIED_MAX = 100_000;

/** The lookup's SQL by number of hashes (one per secret), built by kysely once. */
const lookupSql = new Map<number, string>();

interface KeyRow {
	hash: string;
	streamer_id: string;
	sealed: string;
	replaced_at: Date | null;
}

export async function resolveOverlayKey(db: Db, box: SecretBox, key: string): Promise<KeyLookup> {
	if (!OVERLAY_KEY.test(key)) return null;
	const hashes = box.lookupHashes(key);
	const { rows } = await db.executeQuery<KeyRow>(
		CompiledQuery.raw(sqlFor(db, hashes.length), hashes)
	);
	for (const row of rows) {
		if (verified.get(row.hash) !== row.streamer_id) {
			let plain: string;
			try {
				plain = box.open(row.sealed, sealedAs(row.streamer_id));
			} catch {
				continue;
			}
			if (!sameSecret(plain, key)) continue;
			if (verified.size >= VERIFIED_MAX) verified.clear();
			verified.set(row.hash, row.streamer_id);
		}
		return row.replaced_at ? { replaced: true } : { streamerId: row.streamer_id };
	}
	return null;
}

function sqlFor(db: Db, n: number): string {
	let text = lookupSql.get(n);
	if (text === undefined) {
		text = db
			.selectFrom('overlay_keys')
			.select(['hash', 'streamer_id', 'sealed', 'replaced_at'])
			.where(
				'hash',
				'in',
				Array.from({ length: n }, () => '')
			)
			.compile().sql;
		lookupSql.set(n, text);
	}
	return text;
}

/** The overlay keys of the store's streamers (store.ts). */
export class OverlayKeys {
	constructor(private readonly ctx: StoreContext) {}

	/** The streamer's live overlay key, for their own dashboard; null after Disconnect. */
	async live(streamerId: string): Promise<string | null> {
		const row = await this.ctx.db
			.selectFrom('overlay_keys')
			.select(['hash', 'sealed'])
			.where('streamer_id', '=', streamerId)
			.where('replaced_at', 'is', null)
			.orderBy('created_at', 'desc')
			.executeTakeFirst();
		return row ? this.ctx.box.open(row.sealed, sealedAs(streamerId)) : null;
	}

	/** "New overlay key": the old one stops at once (its sources are told the URL was replaced). */
	async replace(streamerId: string): Promise<string> {
		return this.ctx.db.transaction().execute(async (tx) => {
			await this.turnOff(tx, streamerId, this.ctx.now());
			return this.insert(tx, streamerId);
		});
	}

	/** The streamer an overlay key belongs to (`resolveOverlayKey`). */
	resolve(key: string): Promise<KeyLookup> {
		return resolveOverlayKey(this.ctx.db, this.ctx.box, key);
	}

	/** Within a sign-in's transaction `tx`: a new key, unless the streamer has a live one. */
	async ensureLive(tx: Db, streamerId: string): Promise<void> {
		const live = await tx
			.selectFrom('overlay_keys')
			.select('hash')
			.where('streamer_id', '=', streamerId)
			.where('replaced_at', 'is', null)
			.executeTakeFirst();
		if (!live) await this.insert(tx, streamerId);
	}

	/** Within the transaction `tx`: the streamer's live key stops working from `at`. */
	async turnOff(tx: Db, streamerId: string, at: Date): Promise<void> {
		await tx
			.updateTable('overlay_keys')
			.set({ replaced_at: at })
			.where('streamer_id', '=', streamerId)
			.where('replaced_at', 'is', null)
			.execute();
	}

	private async insert(tx: Db, streamerId: string): Promise<string> {
		const key = randomToken();
		await tx
			.insertInto('overlay_keys')
			.values({
				hash: this.ctx.box.lookupHash(key),
				streamer_id: streamerId,
				sealed: this.ctx.box.seal(key, sealedAs(streamerId))
			})
			.execute();
		return key;
	}
}
