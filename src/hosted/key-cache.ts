// Overlay keys served from memory (docs/hosted-operations.md): a page's every /api call names its
// streamer by its overlay key, and a lookup in the database on each would put the database on an
// alert's path. A key the database named (streamer-keys.ts resolveKey) is kept, by its SHA-256
// (never the key itself), while this instance listens on the push channel (push-channel.ts):
// - a key turned off (replaced, Disconnect) on any instance is announced in the transaction that
//   turns it off (`keysChanged`): every key kept of that streamer is dropped at once;
// - while LISTEN is lost an announcement may be missed: a kept key is then checked in the
//   database again, and served from memory only when the database does not answer in time (it
//   cannot have turned the key off and announced it to no one); once LISTEN is back everything
//   kept is dropped;
// - a key never seen needs the database: one that does not answer within KEY_LOOKUP_MS is a 503.
// A key maps to the one streamer the database named for it: no streamer reaches another's data.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { HttpError } from '../server/http-error.ts';
import { StoreDeadline, withinDeadline } from '../server/deadline.ts';
import type { HostedPushChannel } from './push-channel.ts';
import type { KeyLookup } from './streamer-keys.ts';

/** How long a key never seen waits for the database. */
const KEY_LOOKUP_MS = 1_000;
/** Keys kept at most; past it the least recently used go first. */
const KEYS_KEPT = 20_000;

export class OverlayKeyCache {
	/** Key digest -> streamer id. */
	readonly #kept = new LRUCache<string, string>({ max: KEYS_KEPT });
	/** True while LISTEN is in place: only then is a kept key served without asking. */
	#listening = false;
	/** Bumped whenever what is kept may be stale: a lookup begun before is not kept. */
	#epoch = 0;
	readonly #deadline = new StoreDeadline();
	readonly #leave: () => void;

	constructor(
		private readonly lookup: (key: string) => Promise<KeyLookup>,
		push: Pick<HostedPushChannel, 'watch'>
	) {
		this.#leave = push.watch({
			heard: () => {},
			listening: () => {
				this.#forget();
				this.#listening = true;
			},
			lost: () => {
				this.#listening = false;
				this.#epoch++;
			},
			keysChanged: (streamer) => this.#drop(streamer)
		});
	}

	async resolve(key: string): Promise<KeyLookup> {
		const digest = createHash('sha256').update(key).digest('base64url');
		const streamerId = this.#kept.get(digest);
		if (streamerId !== undefined) {
			if (this.#listening) return { streamerId };
			const asked = await this.#deadline.wait(this.#ask(key, digest)).catch(() => null);
			return asked?.done ? asked.value : { streamerId };
		}
		const asked = await withinDeadline(this.#ask(key, digest), KEY_LOOKUP_MS).catch(() => null);
		if (!asked?.done)
			throw new HttpError(503, 'database_unavailable', 'the overlay key cannot be checked now');
		return asked.value;
	}

	close(): void {
		this.#leave();
		this.#forget();
	}

	async #ask(key: string, digest: string): Promise<KeyLookup> {
		const epoch = this.#epoch;
		const found = await this.lookup(key);
		if (!found || !('streamerId' in found)) this.#kept.delete(digest);
		else if (this.#listening && epoch === this.#epoch) {
			this.#kept.set(digest, found.streamerId);
		}
		return found;
	}

	#drop(streamer: string): void {
		this.#epoch++;
		for (const [digest, id] of [...this.#kept.entries()])
			if (id === streamer) this.#kept.delete(digest);
	}

	#forget(): void {
		this.#epoch++;
		this.#kept.clear();
	}
}
