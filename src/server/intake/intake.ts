// One streamer's intake (docs/architecture.md, the intake and the view): the token endpoint's own
// realtime connection to the upstream with the credential it holds (`data.apiKey`: the API key or
// the OAuth access token; docs/upstream.md, realtime authentication), which keeps the streamer's
// live view (src/core/view/live-view.ts). It reconnects with backoff (src/core/backoff.ts) and, since
// nothing is replayed after a reconnect, reads every part of the view again after each `ready`;
// between, it reads again only the parts the view asks for. A malformed frame is dropped and logged.
import WebSocket from 'ws';
import { CLOSE_UNAUTHORIZED, parseServerFrame, type EventEnvelope } from '../../contract/index.ts';
import { backoffDelay, type BackoffOptions } from '../../core/backoff.ts';
import { LiveView, viewLimits, type LiveViewOptions } from '../../core/view/live-view.ts';
import { partsKept, VIEW_PARTS, type ViewPart } from '../../core/view/parts.ts';
import type { UpstreamClient } from '../upstream.ts';
import { AccountRead } from './account.ts';
import { readPart } from './reads.ts';

/** What the intake needs of the streamer's upstream client. */
export type IntakeUpstream = Pick<UpstreamClient, 'call' | 'wsUrl' | 'realtimeCredential'>;

export interface IntakeOptions {
	view?: LiveViewOptions;
	/** Between connection attempts that did not reach `ready`; and between failed reads of a part. */
	backoff?: BackoffOptions;
	/** Where problems are told (never a credential; a frame's error names fields, not contents). */
	log?: (line: string) => void;
	now?: () => number;
	/**
	 * How long the socket's opening handshake may take, and then its `ready`, before the attempt
	 * counts as failed (ms).
	 */
	handshakeMs?: number;
	/**
	 * Told, after the view changed, which parts may answer differently now (an event applied, a
	 * part read or owed a read, a gap): hosted mode shares the view with its other instances so.
	 */
	onChange?: (parts: readonly ViewPart[]) => void;
	/**
	 * Told what the intake heard, after the view has it (the Activity's recorder,
	 * src/server/activity/recorder.ts): never waited for.
	 */
	heard?: IntakeHeard;
	/** Told every event envelope heard (the chat commands act on theirs: src/server/commands/). */
	onEvent?: (event: EventEnvelope) => void;
}

/** What the intake hears, as told to the Activity (each call returns at once). */
export interface IntakeHeard {
	/** Every event of a valid envelope, known or not, duplicates too (the recorder dedupes). */
	event(envelope: EventEnvelope): void;
	/** A part's read landed (its body as the contract parsed it). */
	read(part: ViewPart, body: unknown): void;
	/** A socket reached `ready`: what happened while none was open may be missing. */
	ready(): void;
}

const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 30_000 };
/** An upstream that accepts the connection and never answers it would hold the attempt for good. */
const HANDSHAKE_MS = 10_000;
/** docs/upstream.md: a client that hears nothing for 2 x heartbeat_s treats the socket as dead. */
const WATCHDOG_FACTOR = 2000;

export class StreamIntake {
	readonly view: LiveView;
	/** Sockets that reached `ready`: 1 + the reconnects. */
	connects = 0;
	/** Upstream reads of each part made so far. */
	readonly reads = new Map<ViewPart, number>();
	/** Parts the credential may not read (403, 404): left out until the next connect. */
	readonly lacking = new Set<ViewPart>();
	/** GET /me of the credential in use, read once and kept (account.ts). */
	readonly account: AccountRead;
	#socket: WebSocket | null = null;
	#stopped = true;
	/** From an attempt's start to its `ready` or close: the `ready` will read every part. */
	#connecting = false;
	/** Called, and forgotten, at the next read landed or failed and the next connect or close. */
	#waiters: Array<() => void> = [];
	#failures = 0;
	/** reconnect() closed the socket: its close connects again without a backoff. */
	#promptly = false;
	/** Why the last attempt failed, as logged; cleared by a `ready`. */
	#lastWhy: string | null = null;
	#retry: NodeJS.Timeout | null = null;
	#watchdog: NodeJS.Timeout | null = null;
	/** From this socket's `ready`: the upstream's heartbeat period (s); null before it. */
	#heartbeat: number | null = null;
	/** Parts being read, parts to read again after, and failed reads waiting for their retry. */
	readonly #reading = new Set<ViewPart>();
	readonly #again = new Set<ViewPart>();
	readonly #readFailures = new Map<ViewPart, number>();
	readonly #readRetries = new Map<ViewPart, NodeJS.Timeout>();
	/** Reads again that an event asked for, waiting until the view would have them (rereadAt). */
	readonly #deferred = new Map<ViewPart, NodeJS.Timeout>();
	readonly #limits: { historyDepth: number; leaderboardDepth: number };
	readonly #backoff: BackoffOptions;
	readonly #log: (line: string) => void;
	readonly #now: () => number;
	readonly #handshakeMs: number;
	readonly #onChange: (parts: readonly ViewPart[]) => void;
	readonly #heard: IntakeHeard | null;
	readonly #onEvent: (event: EventEnvelope) => void;

	constructor(
		private readonly upstream: IntakeUpstream,
		o: IntakeOptions = {}
	) {
		this.view = new LiveView(o.view);
		this.account = new AccountRead(upstream, () => this.connected);
		this.#limits = viewLimits(o.view);
		this.#backoff = o.backoff ?? DEFAULT_BACKOFF;
		this.#log = o.log ?? ((line) => console.warn(line));
		this.#now = o.now ?? Date.now;
		this.#handshakeMs = o.handshakeMs ?? HANDSHAKE_MS;
		this.#onChange = o.onChange ?? (() => {});
		this.#heard = o.heard ?? null;
		this.#onEvent = o.onEvent ?? (() => {});
	}

	start(): void {
		if (!this.#stopped) return;
		this.#stopped = false;
		void this.#connect();
	}

	/** Closes the socket and cancels every timer; reads under way land in the view, nothing more. */
	stop(): void {
		this.#stopped = true;
		const retries = [...this.#readRetries.values(), ...this.#deferred.values()];
		for (const t of [this.#retry, this.#watchdog, ...retries]) if (t) clearTimeout(t);
		this.#readRetries.clear();
		this.#deferred.clear();
		this.#socket?.terminate();
		this.#socket = null;
		this.#connecting = false;
		this.#changed();
	}

	/**
	 * The credential changed (an OAuth connect or disconnect): the socket is made again with the
	 * one to use now, at once rather than after a backoff.
	 */
	reconnect(): void {
		this.account.forget();
		if (this.#stopped) return;
		this.#failures = 0;
		// Its close reconnects at once (and has every part read again after the `ready`).
		this.#promptly = true;
		if (this.#socket) return void this.#socket.terminate();
		this.#promptly = false;
		if (this.#connecting) return;
		if (this.#retry) clearTimeout(this.#retry);
		void this.#connect();
	}

	/**
	 * Reads `part` again though no event asked for it (a page's read of a tip goal the view does
	 * not hold: intake/page-reads.ts); `pending(part)` until its answer lands.
	 */
	readAgain(part: ViewPart): void {
		this.#read(part);
	}

	get connected(): boolean {
		return this.#socket?.readyState === WebSocket.OPEN && this.connects > 0;
	}

	/**
	 * Whether an answer of `part` is on its way: a read of it in flight or about to be sent, or a
	 * connect under way (its `ready` reads every part). Not when a retry waits out its backoff, nor
	 * for a part the credential may not read.
	 */
	pending(part: ViewPart): boolean {
		if (this.#stopped || this.lacking.has(part)) return false;
		return this.#reading.has(part) || this.#deferred.has(part) || this.#connecting;
	}

	/**
	 * Resolves at the next change: an event heard, a read landed or failed, a connect, a close, the
	 * stop.
	 */
	changed(): Promise<void> {
		return new Promise((resolve) => this.#waiters.push(resolve));
	}

	/** What /healthz shows of the intake (routes/health.ts). */
	status(): { connected: boolean; connects: number; reads: number; lacking: ViewPart[] } {
		let reads = 0;
		for (const n of this.reads.values()) reads += n;
		return {
			connected: this.connected,
			connects: this.connects,
			reads,
			lacking: [...this.lacking]
		};
	}

	#changed(): void {
		for (const resolve of this.#waiters.splice(0)) resolve();
	}

	async #connect(rejected?: string): Promise<void> {
		if (this.#stopped) return;
		this.#connecting = true;
		let credential: string | null;
		try {
			credential = await this.upstream.realtimeCredential(rejected);
		} catch {
			credential = null;
		}
		if (this.#stopped) return;
		if (!credential) {
			this.#connecting = false;
			this.#changed();
			return this.#reconnectLater('no upstream credential');
		}
		const socket = new WebSocket(this.upstream.wsUrl, { handshakeTimeout: this.#handshakeMs });
		this.#socket = socket;
		this.#heartbeat = null;
		socket.on('open', () => {
			socket.send(JSON.stringify({ type: 'auth', data: { apiKey: credential } }));
			// No `ready` (nor a refusal) as long again: the attempt failed (its close reconnects).
			this.#disarm();
			this.#watchdog = setTimeout(() => socket.terminate(), this.#handshakeMs);
			this.#watchdog.unref();
		});
		socket.on('message', (data) => {
			if (socket === this.#socket) this.#frame(socket, String(data));
		});
		socket.on('error', () => {}); // The close that follows reconnects.
		socket.on('close', (code) => {
			if (socket !== this.#socket) return;
			this.#socket = null;
			this.#connecting = false;
			this.#disarm();
			// Events sent until the next socket's reads land are lost: no part answers for sure.
			this.view.gap();
			this.#onChange(VIEW_PARTS);
			// A refused credential may be an expired OAuth access token: the next one is fresh.
			const rejected = code === CLOSE_UNAUTHORIZED ? credential : undefined;
			this.#reconnectLater(`socket closed (${code})`, rejected);
			this.#changed();
		});
	}

	#reconnectLater(why: string, rejected?: string): void {
		if (this.#stopped) return;
		const delay = this.#promptly ? 0 : backoffDelay(this.#failures++, this.#backoff);
		this.#promptly = false;
		// The same reason again (no credential until Connect, a key refused) is told once.
		if (why !== this.#lastWhy)
			this.#log(`[intake] ${why}; reconnecting with backoff (next in ${Math.round(delay)} ms)`);
		this.#lastWhy = why;
		this.#retry = setTimeout(() => void this.#connect(rejected), delay);
		this.#retry.unref();
	}

	#frame(socket: WebSocket, text: string): void {
		const frame = parseServerFrame(text);
		if (!frame.ok) return this.#log(`[intake] malformed frame dropped: ${frame.error}`);
		const m = frame.value;
		if (m.kind === 'ready') {
			this.#failures = 0;
			this.#lastWhy = null;
			this.connects += 1;
			this.lacking.clear();
			this.#heartbeat = m.message.data.heartbeat_s;
			// Nothing is replayed after a reconnect (docs/upstream.md): every part is read again.
			for (const part of VIEW_PARTS) this.#read(part);
			this.#connecting = false;
			this.#changed();
			this.#tell((h) => h.ready());
		} else if (m.kind === 'error')
			this.#log(`[intake] upstream refused the socket: ${m.message.data.code}`);
		else if (m.kind === 'event') {
			this.applyEvent(m.message);
			const event = m.message;
			this.#tell((h) => h.event(event));
			this.#onEvent(event);
		}
		this.#arm(socket);
	}

	/**
	 * An event heard of the stream, on its socket or another way (hosted mode's webhooks, which
	 * hand it to the Activity themselves): the view applies it once per id, whichever comes first.
	 */
	applyEvent(event: { id: string; type: string }): void {
		if (this.#stopped) return;
		const applied = this.view.apply(event, this.#now());
		if (applied.outcome === 'malformed')
			this.#log(`[intake] event ${event.type} dropped: ${applied.error}`);
		for (const part of applied.reread) this.#readSoon(part);
		if (applied.outcome === 'applied' || applied.reread.length)
			this.#onChange([...new Set([...partsKept(event.type), ...applied.reread])]);
		// A page's read that names this event waits for the view to have it (page-reads.ts).
		if (applied.outcome !== 'duplicate') this.#changed();
	}

	/** Tells the Activity, after the view: a hook that throws reaches neither the view nor the socket. */
	#tell(call: (h: IntakeHeard) => void): void {
		if (!this.#heard) return;
		try {
			call(this.#heard);
		} catch (err) {
			this.#log(`[intake] the activity hook failed: ${(err as Error).message}`);
		}
	}

	/** After this socket's `ready`, each message re-arms the watchdog; before, its ready timer runs. */
	#arm(socket: WebSocket): void {
		if (this.#heartbeat === null) return;
		this.#disarm();
		const ms = Math.min(this.#heartbeat * WATCHDOG_FACTOR, 2 ** 31 - 1);
		this.#watchdog = setTimeout(() => {
			this.#log(`[intake] no message for ${ms / 1000} s; reconnecting`);
			socket.terminate();
		}, ms);
		this.#watchdog.unref();
	}

	#disarm(): void {
		if (this.#watchdog) clearTimeout(this.#watchdog);
		this.#watchdog = null;
	}

	/** Reads `part` again for an event, when the view would have it (LiveView.rereadAt). */
	#readSoon(part: ViewPart): void {
		// One on its way later holds this event too; one in flight is made again after it (#land).
		if (this.#deferred.has(part)) return;
		if (this.#reading.has(part)) return this.#read(part);
		const now = this.#now();
		const delay = this.view.rereadAt(part, now) - now;
		if (delay <= 0) return this.#read(part);
		const timer = setTimeout(() => this.#read(part), delay);
		timer.unref();
		this.#deferred.set(part, timer);
	}

	/** Reads `part` (one read of a part at a time; asked again meanwhile, once more after it). */
	#read(part: ViewPart): void {
		if (this.#stopped || this.lacking.has(part)) return;
		if (this.#reading.has(part)) {
			this.#again.add(part);
			return;
		}
		for (const timers of [this.#readRetries, this.#deferred]) {
			clearTimeout(timers.get(part));
			timers.delete(part);
		}
		this.#reading.add(part);
		this.reads.set(part, (this.reads.get(part) ?? 0) + 1);
		this.view.beginRead(part, this.#now());
		void this.#land(part);
	}

	async #land(part: ViewPart): Promise<void> {
		let again: ViewPart[] = [];
		try {
			const read = await readPart(this.upstream, part, this.#limits).catch((err: unknown) => ({
				ok: false as const,
				lacking: false,
				error: err instanceof Error ? err.message : String(err)
			}));
			if (read.ok) {
				this.#readFailures.delete(part);
				again = this.view.applySnapshot(part, read.body as never, this.#now());
				this.#onChange([part]);
				const body = read.body;
				this.#tell((h) => h.read(part, body));
			} else {
				this.view.abortRead(part);
				this.#failed(part, read.lacking, read.error);
			}
		} finally {
			this.#reading.delete(part);
		}
		if (this.#again.delete(part)) again.push(part);
		for (const p of new Set(again)) this.#readSoon(p);
		this.#changed();
	}

	#failed(part: ViewPart, lacking: boolean, error: string): void {
		// A read under way at the stop fails as the transport closes: nothing more to do.
		if (this.#stopped) return;
		if (lacking) {
			this.lacking.add(part);
			this.#log(`[intake] the credential cannot read ${part} (${error}); left out`);
			return;
		}
		const n = this.#readFailures.get(part) ?? 0;
		this.#readFailures.set(part, n + 1);
		const delay = backoffDelay(n, this.#backoff);
		this.#log(`[intake] reading ${part} failed (${error}); again in ${Math.round(delay)} ms`);
		const timer = setTimeout(() => {
			this.#readRetries.delete(part);
			this.#read(part);
		}, delay);
		timer.unref();
		this.#readRetries.set(part, timer);
	}
}
