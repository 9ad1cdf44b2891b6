// Remembers the claim a widget instance holds, across reloads of the page (OBS reloads browser
// sources on scene activation, refresh and crashes), so that the next page life can recognise the
// claim as its own and replay that tip instead of losing it or stalling the queue.
//
// Two live pages with the same instance id (the same URL open twice in one browser) must not both
// think a claim is theirs: a Web Lock named after the instance is held for the page's lifetime,
// and only the page that holds it reads and writes the memory. A page that cannot get the lock
// keeps its claim in memory only.

export interface ClaimMemory {
	/** The order id of the remembered claim, or null. */
	load(): string | null;
	/** Whether the remembered claim had played to its end (only its finish was missing). */
	played(): boolean;
	save(orderId: string | null, played?: boolean): void;
}

export class VolatileClaimMemory implements ClaimMemory {
	#value: string | null = null;
	#wasPlayed = false;
	load(): string | null {
		return this.#value;
	}
	played(): boolean {
		return this.#value !== null && this.#wasPlayed;
	}
	save(orderId: string | null, played = false): void {
		this.#value = orderId;
		this.#wasPlayed = orderId !== null && played;
	}
}

/** Stored as the order id, with `played:` in front once it has played to its end. */
const STORED = /^(played:)?([A-Za-z0-9_-]{1,128})$/;

class StoredClaimMemory implements ClaimMemory {
	constructor(
		private readonly storage: Storage,
		private readonly key: string
	) {}
	#read(): RegExpExecArray | null {
		try {
			return STORED.exec(this.storage.getItem(this.key) ?? '');
		} catch {
			return null; // storage disabled: behave as a fresh page
		}
	}
	load(): string | null {
		return this.#read()?.[2] ?? null;
	}
	played(): boolean {
		const m = this.#read();
		return m !== null && m[1] !== undefined;
	}
	save(orderId: string | null, played = false): void {
		try {
			if (orderId === null) this.storage.removeItem(this.key);
			else this.storage.setItem(this.key, played ? `played:${orderId}` : orderId);
		} catch {
			// Quota or privacy mode: the takeover rule still keeps the queue moving.
		}
	}
}

interface LockManagerLike {
	request(
		name: string,
		options: { ifAvailable: boolean },
		callback: (lock: unknown) => Promise<void> | void
	): Promise<unknown>;
}

/**
 * The memory for one widget instance: persistent when this page is the only live holder of the
 * instance's lock, volatile otherwise. Resolves quickly; never throws.
 */
export async function openClaimMemory(queue: string, instance: string): Promise<ClaimMemory> {
	const key = `tok:claim:${queue}:${instance}`;
	const storage = typeof localStorage === 'undefined' ? null : localStorage;
	const locks = (typeof navigator === 'undefined' ? undefined : navigator.locks) as
		LockManagerLike | undefined;
	if (!storage) return new VolatileClaimMemory();
	if (!locks) return new StoredClaimMemory(storage, key);
	return new Promise<ClaimMemory>((resolve) => {
		locks
			.request(key, { ifAvailable: true }, (lock) => {
				if (!lock) {
					resolve(new VolatileClaimMemory());
					return;
				}
				resolve(new StoredClaimMemory(storage, key));
				// Hold the lock until the page goes away.
				return new Promise<void>(() => {});
			})
			.catch(() => resolve(new StoredClaimMemory(storage, key)));
	});
}
