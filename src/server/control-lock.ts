// The dock's actions of one streamer run one at a time (docs/dock.md: two docks pressing at once
// never skip or replay twice): each action reads the queue, then acts on what it read, and a second
// action must read what the first did. This is the default, within this process; hosted mode
// passes a lock that holds across instances (AppOptions.controlLock).

export type ControlLock = <T>(streamer: string, action: () => Promise<T>) => Promise<T>;

/** A promise chain per streamer; a failed action does not stop the next. */
export function localControlLock(): ControlLock {
	const tails = new Map<string, Promise<unknown>>();
	return <T>(streamer: string, action: () => Promise<T>): Promise<T> => {
		const run = (tails.get(streamer) ?? Promise.resolve()).then(action);
		const tail = run.catch(() => undefined);
		tails.set(streamer, tail);
		// Forget a streamer once their last action ended: the map holds only those with one running.
		void tail.then(() => {
			if (tails.get(streamer) === tail) tails.delete(streamer);
		});
		return run;
	};
}
