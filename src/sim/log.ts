// What the simulator saw and sent, for tests and for observing engines where Playwright cannot click
// (Chromium 103): every API request with its outcome, and every event emitted.
import { oldestFirst, Ring } from '../core/ring.ts';

export interface RequestEntry {
	seq: number;
	t: number;
	kind: 'request';
	method: string;
	/** Relative to {base_url}. */
	path: string;
	status: number;
	code?: string;
	key?: string;
	/** The account the credential belongs to, when the simulator holds several. */
	tenant?: string;
}

export interface EventEntry {
	seq: number;
	t: number;
	kind: 'event';
	id: string;
	type: string;
	order_id?: string;
	/** The account the event belongs to, when the simulator holds several. */
	tenant?: string;
}

/** An OAuth grant, refresh, rejection or revocation (src/sim/oauth.ts); tests count refreshes. */
export interface OAuthEntry {
	seq: number;
	t: number;
	kind: 'oauth';
	action:
		| 'authorization_code'
		| 'refresh_token'
		| 'refresh_rejected'
		| 'code_rejected'
		| 'reuse_detected'
		| 'revoke'
		| 'revoked';
	client_id: string;
	authorization_id?: string;
	reason?: string;
}

/** A file the consumers fetch without a credential: rendered audio, demo videos (the chaos ledger). */
export interface AssetEntry {
	seq: number;
	t: number;
	kind: 'asset';
	method: string;
	/** Relative to the simulator's origin, e.g. `/audio/ord_x.wav`, `/demo/bars.webm`. */
	path: string;
	status: number;
}

export type LogEntry = RequestEntry | EventEntry | OAuthEntry | AssetEntry;

export class SimLog {
	// A ring, not an array spliced at its front: a busy simulator (the hosted bench's storms) logs
	// about a thousand entries a second, and moving 20,000 entries on each was a sixth of its CPU.
	private readonly ring: Ring<LogEntry>;
	private seq = 0;

	constructor(capacity = 20_000) {
		this.ring = new Ring(capacity);
	}

	request(e: Omit<RequestEntry, 'seq' | 't' | 'kind'>): void {
		this.push({ ...e, kind: 'request', seq: 0, t: Date.now() });
	}

	event(e: Omit<EventEntry, 'seq' | 't' | 'kind'>): void {
		this.push({ ...e, kind: 'event', seq: 0, t: Date.now() });
	}

	oauth(e: Omit<OAuthEntry, 'seq' | 't' | 'kind'>): void {
		this.push({ ...e, kind: 'oauth', seq: 0, t: Date.now() });
	}

	oauthEntries(action?: OAuthEntry['action']): OAuthEntry[] {
		return oldestFirst(this.ring).filter(
			(e): e is OAuthEntry => e.kind === 'oauth' && (!action || e.action === action)
		);
	}

	asset(e: Omit<AssetEntry, 'seq' | 't' | 'kind'>): void {
		this.push({ ...e, kind: 'asset', seq: 0, t: Date.now() });
	}

	since(seq = 0): LogEntry[] {
		return oldestFirst(this.ring).filter((e) => e.seq > seq);
	}

	requests(filter?: { method?: string; path?: string | RegExp }): RequestEntry[] {
		return oldestFirst(this.ring).filter(
			(e): e is RequestEntry =>
				e.kind === 'request' &&
				(!filter?.method || e.method === filter.method) &&
				(!filter?.path ||
					(typeof filter.path === 'string' ? e.path === filter.path : filter.path.test(e.path)))
		);
	}

	events(type?: string): EventEntry[] {
		return oldestFirst(this.ring).filter(
			(e): e is EventEntry => e.kind === 'event' && (!type || e.type === type)
		);
	}

	get lastSeq(): number {
		return this.seq;
	}

	private push(entry: LogEntry): void {
		this.seq += 1;
		entry.seq = this.seq;
		this.ring.push(entry);
	}
}
