// Tasks that wait in line per key: one task of a key runs at a time, in the order they came, and a
// task that fails does not hold up the next. The dock's actions of one streamer (server and hosted
// control-lock.ts) and the embedded database's token refreshes (hosted/locks.ts) use it.

export class KeyedLine {
	/** The last task in line for each key; a key leaves the map when its last task has ended. */
	readonly #last = new Map<string, Promise<void>>();

	/** Runs `task` once the key's earlier tasks have ended, however they ended: its result or error. */
	async run<T>(key: string, task: () => Promise<T>): Promise<T> {
		const before = this.#last.get(key);
		let done!: () => void;
		const mine = new Promise<void>((resolve) => (done = resolve));
		this.#last.set(key, mine);
		await before;
		try {
			return await task();
		} finally {
			done();
			if (this.#last.get(key) === mine) this.#last.delete(key);
		}
	}
}
