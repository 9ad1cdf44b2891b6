// Identical reads of one upstream client share calls: a GET joins an identical one that
// has not been sent yet (waiting for its budget, or for the credential), and a GET that arrives
// once that call is on its way waits for it to end and shares the next call with every identical
// GET that arrived meanwhile. So N identical reads cost at most two calls, and never an answer
// older than the read: whatever happened before a read arrived, the call that answers it was sent
// after. Each reader gets the upstream's status, headers and body as if it had called alone.

/** One call that answers every read that joined it before it was sent. */
interface Flight {
	sent: boolean;
	readers: { resolve: (res: Response) => void; reject: (err: unknown) => void }[];
	/** Settles when the call has answered (or failed): the next call for the key may go. */
	done: Promise<void>;
}

/** Makes `n` Responses of one answer, each readable on its own. */
export type Copies = (res: Response, n: number) => Promise<Response[]>;

/** Reads of this process answered by a call another read caused, since the start. */
let sharedInProcess = 0;

/** For /metrics: the upstream calls identical reads spared, since the process started. */
export function readsShared(): number {
	return sharedInProcess;
}

export class ReadFlights {
	/** Per path and query: the latest call, sent or not. */
	private readonly latest = new Map<string, Flight>();

	constructor(private readonly copies: Copies) {}

	/**
	 * Answers the read of `key` with a call made by `call` (it calls `sent` as the request leaves),
	 * or with the call of an identical read that may still answer it.
	 */
	read(key: string, call: (sent: () => void) => Promise<Response>): Promise<Response> {
		const latest = this.latest.get(key);
		if (latest && !latest.sent) {
			sharedInProcess += 1;
			return new Promise((resolve, reject) => latest.readers.push({ resolve, reject }));
		}
		const flight: Flight = { sent: false, readers: [], done: Promise.resolve() };
		const answer = new Promise<Response>((resolve, reject) =>
			flight.readers.push({ resolve, reject })
		);
		this.latest.set(key, flight);
		// After the call in flight (if any): a follower, which every read arriving meanwhile joins.
		flight.done = (latest?.done ?? Promise.resolve()).then(() => this.fly(key, flight, call));
		return answer;
	}

	private async fly(
		key: string,
		flight: Flight,
		call: (sent: () => void) => Promise<Response>
	): Promise<void> {
		const readers = flight.readers;
		try {
			const res = await call(() => (flight.sent = true));
			flight.sent = true;
			if (readers.length === 1) readers[0].resolve(res);
			else (await this.copies(res, readers.length)).forEach((r, i) => readers[i].resolve(r));
		} catch (err) {
			for (const r of readers) r.reject(err);
		} finally {
			flight.sent = true;
			if (this.latest.get(key) === flight) this.latest.delete(key);
		}
	}
}
