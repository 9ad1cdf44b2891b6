// The signed-in streamers' intakes across the instances (docs/hosted.md, the intake's lease): every
// TICK_MS each instance says it is alive and renews its leases (intake-leases.ts), takes up to its
// share the leases whose holder let them expire and those nobody holds, and gives up what it holds
// above its share a few at a time, so that the streamers spread over the instances. For each
// lease it holds it runs the streamer's intake (src/server/intake/intake.ts) and shares its view
// (shared-view.ts); for a streamer another instance holds, its pages' reads are answered from the
// copy of that view. A lease not renewed for TTL_MS is anybody's: an instance killed (SIGKILL) is
// taken over within TTL_MS + TICK_MS; one that stops (SIGTERM) gives its leases up at once, taken
// within TICK_MS. An instance that cannot renew stops its intakes before its leases can expire,
// and runs them again if its next renew finds those leases still its own.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { VIEW_PARTS } from '../core/view/parts.ts';
import { EventTap } from '../server/commands/tap.ts';
import { StoreDeadline } from '../server/deadline.ts';
import { StreamIntake, type IntakeHeard, type IntakeUpstream } from '../server/intake/intake.ts';
import type { ViewSource } from '../server/intake/page-reads.ts';
import { leaseDatabase, type Db } from './db.ts';
import { IntakeLeases, type Lease } from './intake-leases.ts';
import type { HostedPushChannel } from './push-channel.ts';
import { FollowerView, ViewPublisher } from './shared-view.ts';

export const TICK_MS = 2_000;
export const TTL_MS = 6_000;
/** At most this many leases given up per tick to even out the instances' shares. */
const REBALANCE_MAX = 10;
/**
 * Intakes started at once at most, then as many every START_SPACING_MS: an instance taking over
 * hundreds of streamers connects them in a few waves, its renews never starved meanwhile.
 */
const START_BATCH = 50;
const START_SPACING_MS = 250;
/** Copies of other instances' views kept (the least recently read go first). */
const FOLLOWERS_MAX = 5_000;

export interface HostedIntakesOptions {
	/** The streamer's upstream client (connections.ts): their OAuth access token. */
	upstreamOf: (streamer: string) => IntakeUpstream;
	tickMs?: number;
	ttlMs?: number;
	log?: (line: string) => void;
	/** The Activity's hook for a streamer's intake (src/server/activity/recorder.ts heardBy). */
	heard?: (streamer: string, upstream: IntakeUpstream) => IntakeHeard;
}

interface Held {
	lease: Lease;
	intake: StreamIntake;
	publisher: ViewPublisher;
}

/** What /healthz and /metrics show of an instance's intakes. */
export interface IntakesStatus {
	/** Leases this instance holds, and of those the intakes connected now. */
	held: number;
	connected: number;
	/** Leases taken from a holder that let them expire or gave them up, since the start. */
	takeovers: number;
}

export class HostedIntakes {
	readonly me = randomUUID();
	/** Where each held intake hands the events it hears (the chat commands act on theirs). */
	readonly events = new EventTap();
	readonly #leases: IntakeLeases;
	readonly #held = new Map<string, Held>();
	readonly #followers = new LRUCache<string, FollowerView>({ max: FOLLOWERS_MAX });
	/** How long a page's read waits for the database's copy of a view (shared-view.ts). */
	readonly #deadline = new StoreDeadline();
	#takeovers = 0;
	#ticks = 0;
	/** Intakes held since this tick began: their starts are spread in waves (START_BATCH). */
	#starting = 0;
	#timer: NodeJS.Timeout | null = null;
	/** Stops every intake if no renew succeeds in time: another instance may take the leases. */
	#fence: NodeJS.Timeout | null = null;
	#ticking: Promise<void> | null = null;
	#stopped = true;
	#unwatch: (() => void) | null = null;
	#lastError: string | null = null;
	readonly #tickMs: number;
	readonly #ttlMs: number;
	readonly #log: (line: string) => void;

	constructor(
		private readonly db: Db,
		private readonly push: HostedPushChannel,
		private readonly o: HostedIntakesOptions
	) {
		this.#tickMs = o.tickMs ?? TICK_MS;
		this.#ttlMs = o.ttlMs ?? TTL_MS;
		this.#log = o.log ?? ((line) => console.warn(line));
		// On a connection of its own: a renew never waits behind the views being shared.
		this.#leases = new IntakeLeases(leaseDatabase(db), this.me, {
			ttlMs: this.#ttlMs,
			aliveMs: this.#ttlMs - this.#tickMs,
			deadMs: this.#tickMs * 1.25
		});
	}

	start(): void {
		if (!this.#stopped) return;
		this.#stopped = false;
		this.#unwatch = this.push.watch({
			heard: () => {},
			listening: () => this.#followers.forEach((f) => f.lost()),
			lost: () => this.#followers.forEach((f) => f.lost()),
			viewChanged: (streamer, parts) => this.#followers.get(streamer)?.told(parts)
		});
		this.#schedule(0);
	}

	/** Gives up every lease (taken by the others at their next tick) and stops every intake. */
	async close(): Promise<void> {
		this.#stopped = true;
		this.#unwatch?.();
		if (this.#timer) clearTimeout(this.#timer);
		if (this.#fence) clearTimeout(this.#fence);
		await this.#ticking;
		for (const streamer of [...this.#held.keys()]) this.#drop(streamer);
		await this.#leases.leave().catch(() => {});
	}

	/** What answers the streamer's pages' reads: the intake held here, or the copy of another's. */
	intakeOf(streamer: string): ViewSource {
		const held = this.#held.get(streamer);
		if (held) return held.intake;
		let follower = this.#followers.get(streamer);
		if (!follower)
			this.#followers.set(
				streamer,
				(follower = new FollowerView(
					this.db,
					streamer,
					this.#deadline,
					this.o.upstreamOf(streamer)
				))
			);
		return follower;
	}

	/** An event heard another way (a webhook): to the streamer's intake, if this instance holds it. */
	heard(streamer: string, event: { id: string; type: string }): void {
		this.#held.get(streamer)?.intake.applyEvent(event);
	}

	/** Whether this instance holds the streamer's intake (tests, /healthz). */
	holds(streamer: string): boolean {
		return this.#held.has(streamer);
	}

	status(): IntakesStatus {
		let connected = 0;
		for (const h of this.#held.values()) if (h.intake.connected) connected += 1;
		return { held: this.#held.size, connected, takeovers: this.#takeovers };
	}

	#schedule(ms: number): void {
		if (this.#stopped) return;
		this.#timer = setTimeout(() => {
			const started = Date.now();
			this.#ticking = this.#tick().finally(() => {
				this.#ticking = null;
				// Every TICK_MS from the last tick's start: a long tick does not put the renew off.
				this.#schedule(Math.max(0, started + this.#tickMs - Date.now()));
			});
		}, ms);
		this.#timer.unref();
	}

	async #tick(): Promise<void> {
		const started = Date.now();
		this.#starting = 0;
		try {
			const renewed = await this.#leases.renew();
			if (this.#stopped) return;
			// A renew answered so late that the fence would fire at once: holding intakes now would
			// only start them to stop them. The next tick (at once, this one being late) tries again.
			const fenceIn = started + this.#ttlMs - this.#tickMs - Date.now();
			if (fenceIn < this.#tickMs / 4) return this.#fenced();
			this.#armFence(fenceIn);
			const still = new Map(renewed.held.map((l) => [l.streamer, l.epoch]));
			for (const [streamer, h] of this.#held)
				if (still.get(streamer) !== h.lease.epoch) this.#drop(streamer);
			// Leases still this instance's whose intakes the fence stopped (a renew answered late,
			// not lost): their intakes run here again.
			for (const lease of renewed.held)
				if (!this.#held.has(lease.streamer)) this.#hold(lease, true);
			// The first tick only says this instance is alive: instances starting together count
			// each other before they share the streamers out.
			if (this.#ticks++ === 0) return;
			const share = Math.ceil(renewed.streamers / renewed.instances);
			const excess = this.#held.size - (share + Math.max(1, Math.ceil(share / 10)));
			if (excess > 0) {
				const given = [...this.#held.keys()].slice(0, Math.min(excess, REBALANCE_MAX));
				for (const streamer of given) this.#drop(streamer);
				await this.#leases.release(given);
				return;
			}
			for (const lease of await this.#leases.take(share - this.#held.size)) {
				if (this.#stopped) break;
				this.#hold(lease);
			}
			this.#lastError = null;
		} catch (err) {
			const why = (err as Error).message;
			if (why !== this.#lastError) this.#log(`[intake] the leases could not be renewed: ${why}`);
			this.#lastError = why;
		}
	}

	/**
	 * Armed at each renew: the leases last TTL from it (from after the tick's start, the database's
	 * time), so the intakes stop a tick before, in `ms`.
	 */
	#armFence(ms: number): void {
		if (this.#fence) clearTimeout(this.#fence);
		this.#fence = setTimeout(() => this.#fenced(), ms);
		this.#fence.unref();
	}

	#fenced(): void {
		if (this.#held.size)
			this.#log(`[intake] no lease renewed in time; stopping ${this.#held.size} intakes`);
		for (const streamer of [...this.#held.keys()]) this.#drop(streamer);
	}

	/** `again`: a lease this instance kept while its fence had stopped the intake. */
	#hold(lease: Lease, again = false): void {
		const { streamer } = lease;
		if (this.#held.has(streamer)) this.#drop(streamer);
		const wave = Math.floor(this.#starting++ / START_BATCH);
		let intake: StreamIntake | null = null;
		const publisher = new ViewPublisher(
			this.db,
			this.push,
			lease,
			this.me,
			() => intake!.view,
			this.#log
		);
		const upstream = this.o.upstreamOf(streamer);
		intake = new StreamIntake(upstream, {
			log: this.#log,
			onChange: (parts) => publisher.changed(parts),
			// The Activity records what this intake hears (after a takeover: what it missed too).
			heard: this.o.heard?.(streamer, upstream),
			onEvent: (event) => this.events.heard(streamer, event)
		});
		this.#held.set(streamer, { lease, intake, publisher });
		this.#followers.delete(streamer);
		// What was shared under this epoch before the fence is not trusted: the new view is sure of
		// nothing yet.
		if (again) publisher.changed(VIEW_PARTS);
		else if (lease.epoch > 1) this.#takeovers += 1;
		const start = () => {
			// Unless dropped (or dropped and held again) meanwhile.
			if (this.#held.get(streamer)?.intake === intake) intake.start();
		};
		if (wave === 0) start();
		else setTimeout(start, wave * START_SPACING_MS).unref();
	}

	#drop(streamer: string): void {
		const held = this.#held.get(streamer);
		if (!held) return;
		this.#held.delete(streamer);
		held.intake.stop();
		held.publisher.stop();
	}
}

/** Starts the instance's intakes, each with the streamer's client as it is at each call. */
export function startIntakes(
	db: Db,
	push: HostedPushChannel,
	/** The streamers' upstream clients (connections.ts HostedConnections). */
	connections: { upstream(streamer: string): IntakeUpstream },
	o: Pick<HostedIntakesOptions, 'tickMs' | 'ttlMs' | 'heard'> = {}
): HostedIntakes {
	const intakes = new HostedIntakes(db, push, {
		...o,
		// A sign-in again makes the streamer a new client: the intake uses the one of the moment.
		upstreamOf: (streamer) => ({
			get wsUrl() {
				return connections.upstream(streamer).wsUrl;
			},
			call: (...args) => connections.upstream(streamer).call(...args),
			realtimeCredential: (rejected) => connections.upstream(streamer).realtimeCredential(rejected)
		})
	});
	intakes.start();
	return intakes;
}
