// GET /me kept beside the streamer's intake (docs/architecture.md, pages read the view): every page
// and the dock read it (the tenant's name and currency symbol), and its answer changes only with the
// credential. So it is read once for the credential in use and kept, and later reads of it are
// answered with the bytes the upstream answered (the proxy forwards /me as it is, unmoderated).
// The credential in use is the one the intake's socket authenticates with (the OAuth access token
// while connected, else the API key): a Connect or Disconnect, and each refresh of the access token,
// is another credential, whose /me is read again. The kept answer is given only while the intake's
// socket is open: the upstream accepting that socket is what says the credential still works (a
// revoked authorization closes it within seconds); with the socket down, /me goes upstream.
import { Me, parseWith } from '../../contract/index.ts';
import { bodyBytes, UpstreamUnavailable, type UpstreamClient } from '../upstream.ts';

/** What the account's read needs of the streamer's upstream client. */
export type AccountUpstream = Pick<UpstreamClient, 'call' | 'realtimeCredential'>;

interface Kept {
	/** The credential it was answered to (compared, never logged). */
	credential: string;
	bytes: Uint8Array<ArrayBuffer>;
	type: string;
}

export class AccountRead {
	#kept: Kept | null = null;
	/** The read on its way for a credential: the reads meanwhile wait for it. */
	#flight: { credential: string; done: Promise<void> } | null = null;
	/** Counts forget(): a read sent before the last one is not kept. */
	#epoch = 0;

	constructor(
		private readonly upstream: AccountUpstream,
		/** Whether the intake's socket is open (the upstream accepts the credential now). */
		private readonly live: () => boolean
	) {}

	/** The credential changed (an OAuth Connect or Disconnect): what was kept is dropped. */
	forget(): void {
		this.#kept = null;
		this.#flight = null;
		this.#epoch += 1;
	}

	/**
	 * The answer to a read of GET /me: the kept one; or the one on its way, once it lands; or else
	 * the upstream's own, read now, kept when it is a 200 of the credential still in use. `charge`
	 * (the read allowance of the page it goes for) is taken only while the socket is down: with it
	 * open, the read is the one the kept answer is made of, shared by every page that asks.
	 */
	async read(charge: () => void): Promise<Response> {
		const credential = await this.upstream.realtimeCredential().catch(() => null);
		if (credential !== null && this.live()) {
			const flight = this.#flight;
			if (this.#kept?.credential !== credential && flight?.credential === credential)
				await flight.done;
			const kept = this.#kept;
			if (kept?.credential === credential) return answer(kept);
		} else charge();
		if (credential === null) return this.upstream.call('GET', '/me');
		let landed!: () => void;
		const done = new Promise<void>((resolve) => (landed = resolve));
		const flight = { credential, done };
		this.#flight = flight;
		const epoch = this.#epoch;
		try {
			const res = await this.upstream.call('GET', '/me');
			if (!res.ok) return res;
			const bytes = await bodyBytes(res).catch((err: unknown) => {
				throw new UpstreamUnavailable(err instanceof Error ? err.message : String(err));
			});
			const type = res.headers.get('content-type') ?? 'application/json';
			const still = await this.upstream.realtimeCredential().catch(() => null);
			if (epoch === this.#epoch && still === credential && isAccount(bytes))
				this.#kept = { credential, bytes, type };
			return new Response(bytes, { status: res.status, headers: res.headers });
		} finally {
			if (this.#flight === flight) this.#flight = null;
			landed();
		}
	}
}

function answer(kept: Kept): Response {
	return new Response(kept.bytes, { headers: { 'content-type': kept.type } });
}

/** Only an answer that reads as GET /me is kept (parse leniently: extra fields stay). */
function isAccount(bytes: Uint8Array): boolean {
	let json: unknown;
	try {
		json = JSON.parse(new TextDecoder().decode(bytes));
	} catch {
		return false;
	}
	return parseWith(Me, json).ok;
}
