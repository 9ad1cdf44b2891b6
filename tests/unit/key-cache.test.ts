// Overlay keys served from memory in hosted mode (src/hosted/key-cache.ts): a key the database
// named is served without asking it again while LISTEN is in place; a key turned off, announced,
// stops at once; while LISTEN is lost the database is asked again and memory serves only when it
// does not answer; LISTEN back drops everything kept; a key never seen with the database away is a
// 503 within a second; a key names only the streamer the database named for it.
import { describe, expect, it } from 'vitest';
import { OverlayKeyCache } from '../../src/hosted/key-cache.ts';
import type { PushWatcher } from '../../src/hosted/push-channel.ts';
import type { KeyLookup } from '../../src/hosted/streamer-keys.ts';

const KEY_A = 'a'.repeat(43);
const KEY_B = 'b'.repeat(43);

/** A database of keys whose lookups can be made to hang, counting them. */
function rig() {
	const rows = new Map<string, KeyLookup>([
		[KEY_A, { streamerId: 'streamer-a' }],
		[KEY_B, { streamerId: 'streamer-b' }]
	]);
	let watcher!: PushWatcher;
	const db = { asked: 0, frozen: false };
	const cache = new OverlayKeyCache(
		async (key) => {
			db.asked += 1;
			if (db.frozen) await new Promise(() => {});
			return rows.get(key) ?? null;
		},
		{
			watch: (w) => {
				watcher = w;
				return () => {};
			}
		}
	);
	watcher.listening();
	return { rows, db, cache, watcher };
}

describe('overlay keys served from memory', () => {
	it('a key named once is served without the database, each key its own streamer', async () => {
		const { db, cache } = rig();
		expect(await cache.resolve(KEY_A)).toEqual({ streamerId: 'streamer-a' });
		expect(await cache.resolve(KEY_B)).toEqual({ streamerId: 'streamer-b' });
		db.frozen = true;
		expect(await cache.resolve(KEY_A)).toEqual({ streamerId: 'streamer-a' });
		expect(await cache.resolve(KEY_B)).toEqual({ streamerId: 'streamer-b' });
		expect(db.asked).toBe(2);
	});

	it('a key turned off and announced is asked of the database again, and refused', async () => {
		const { rows, cache, watcher } = rig();
		await cache.resolve(KEY_A);
		rows.set(KEY_A, { replaced: true });
		watcher.keysChanged?.('streamer-a');
		expect(await cache.resolve(KEY_A)).toEqual({ replaced: true });
		expect(await cache.resolve(KEY_A)).toEqual({ replaced: true });
	});

	it('while LISTEN is lost the database decides; memory serves only when it does not answer', async () => {
		const { rows, db, cache, watcher } = rig();
		await cache.resolve(KEY_A);
		await cache.resolve(KEY_B);
		watcher.lost();
		rows.set(KEY_A, { replaced: true });
		expect(await cache.resolve(KEY_A)).toEqual({ replaced: true });
		db.frozen = true;
		expect(await cache.resolve(KEY_B)).toEqual({ streamerId: 'streamer-b' });
		// The replaced key was dropped: with the database away it is not served from memory.
		await expect(cache.resolve(KEY_A)).rejects.toMatchObject({ status: 503 });
	});

	it('LISTEN back drops every key kept (an announcement may have been missed)', async () => {
		const { db, cache, watcher } = rig();
		await cache.resolve(KEY_A);
		watcher.lost();
		watcher.listening();
		db.frozen = true;
		await expect(cache.resolve(KEY_A)).rejects.toMatchObject({ status: 503 });
	});

	it('a key never seen with the database away: 503 within a second', async () => {
		const { db, cache } = rig();
		db.frozen = true;
		const t0 = performance.now();
		await expect(cache.resolve(KEY_A)).rejects.toMatchObject({
			status: 503,
			code: 'database_unavailable'
		});
		expect(performance.now() - t0).toBeLessThan(1_500);
	});
});
