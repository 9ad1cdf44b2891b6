// The dock's actions of one streamer run one at a time (docs/dock.md: two docks pressing at once
// never skip or replay twice): each action reads the queue, then acts on what it read, and a second
// action must read what the first did. This is the default, within this process; hosted mode
// passes a lock that holds across instances (AppOptions.controlLock).
import { KeyedLine } from '../core/keyed-line.ts';

export type ControlLock = <T>(streamer: string, action: () => Promise<T>) => Promise<T>;

/** A line per streamer in this process; a failed action does not stop the next. */
export function localControlLock(): ControlLock {
	const line = new KeyedLine();
	return (streamer, action) => line.run(streamer, action);
}
