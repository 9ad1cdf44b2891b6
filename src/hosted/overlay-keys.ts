// Which streamer an overlay key in a request names: every /token and /api call asks, so this is
// the hosted mode's hot path. The key is looked up by its keyed hash (under every secret, so a
// rotation keeps old keys working) in one indexed query, every time: a key replaced or turned off
// on any instance is refused at once by every other. What is kept in memory is only what cannot
// change (`verified`), and the query's SQL.
import { CompiledQuery } from 'kysely';
import { OVERLAY_KEY } from '../server/config.ts';
import { sameSecret, type SecretBox } from './crypto.ts';
import type { Db } from './db.ts';

/** What an overlay key in a request resolves to. */
export type KeyLookup = { streamerId: string } | { replaced: true } | null;

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
				plain = box.open(row.sealed, `overlay_key:${row.streamer_id}`);
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
