// A streamer's live view shared between instances (docs/hosted.md, the intake's lease). The
// instance holding the streamer's intake writes each part that changed to `view_parts` under its
// lease's epoch and tells the others on the push channel (ViewPublisher); an instance that does not
// hold it answers its pages' reads from a copy of those parts (FollowerView), read from the
// database when a page asks and the copy is stale: a part told changed, or the lease's end that the
// last read saw has passed (the holder may have died: its parts are trusted no longer than its
// lease). No copy answers a part that the holder is not sure of, or that another epoch wrote.
// With the parts, the holder writes the event ids its view had last (the row SEEN_ROW): a page's
// read that names an event waits until the copy has it (src/server/intake/page-reads.ts).
import { sql } from 'kysely';
import { LiveView } from '../core/view/live-view.ts';
import { VIEW_PARTS, type Snapshots, type ViewPart } from '../core/view/parts.ts';
import { partSnapshot } from '../core/view/shared.ts';
import { StoreDeadline } from '../server/deadline.ts';
import { AccountRead, type AccountUpstream } from '../server/intake/account.ts';
import type { ViewSource } from '../server/intake/page-reads.ts';
import { jsonColumn, type Db } from './db.ts';
import type { Lease } from './intake-leases.ts';
import type { HostedPushChannel } from './push-channel.ts';

/** A write of the parts that failed (the database away) is made again this much later. */
const WRITE_RETRY_MS = 1_000;
/** With no holder, a follower looks again this much later at the earliest. */
const NO_HOLDER_MS = 1_000;
/** The row of `view_parts` beside the parts: the event ids the holder's view had when it wrote. */
const SEEN_ROW = 'seen';

/** The holder's side: the parts its intake changed, written and told, one write at a time. */
export class ViewPublisher {
	readonly #dirty = new Set<ViewPart>();
	#writing = false;
	#retry: NodeJS.Timeout | null = null;
	#stopped = false;

	constructor(
		private readonly db: Db,
		private readonly push: HostedPushChannel,
		private readonly lease: Lease,
		private readonly holder: string,
		private readonly view: () => LiveView,
		private readonly log: (line: string) => void
	) {}

	/** The intake changed these parts (IntakeOptions.onChange). */
	changed(parts: readonly ViewPart[]): void {
		for (const part of parts) this.#dirty.add(part);
		if (!this.#writing && !this.#retry) void this.#write();
	}

	stop(): void {
		this.#stopped = true;
		if (this.#retry) clearTimeout(this.#retry);
		this.#retry = null;
	}

	/** Writes what the parts are now, if the lease is still this holder's, and tells the others. */
	async #write(): Promise<void> {
		if (this.#stopped || this.#dirty.size === 0) return;
		this.#writing = true;
		const parts = [...this.#dirty];
		this.#dirty.clear();
		const view = this.view();
		const rows: { part: string; body: unknown }[] = parts.map((part) => ({
			part,
			body: partSnapshot(view, part)
		}));
		rows.push({ part: SEEN_ROW, body: view.seenIds() });
		const { streamer, epoch } = this.lease;
		try {
			await this.db.transaction().execute(async (tx) => {
				const written = await sql<{ part: string }>`
					insert into view_parts (streamer_id, part, epoch, body)
					select ${streamer}, r.part, ${epoch}, r.body
					from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(part text, body jsonb)
					where exists (select 1 from intake_leases
						where streamer_id = ${streamer} and holder = ${this.holder} and epoch = ${epoch})
					on conflict (streamer_id, part) do update
						set epoch = excluded.epoch, body = excluded.body
					returning part`.execute(tx);
				if (written.rows.length) await this.push.announceView(streamer, parts, tx);
			});
		} catch (err) {
			for (const part of parts) this.#dirty.add(part);
			if (!this.#stopped) {
				this.log(`[intake] sharing the view failed (${(err as Error).message}); again soon`);
				this.#retry = setTimeout(() => {
					this.#retry = null;
					void this.#write();
				}, WRITE_RETRY_MS);
				this.#retry.unref();
			}
		} finally {
			this.#writing = false;
		}
		if (!this.#retry) void this.#write();
	}
}

/** Another instance's side: a copy of the holder's parts, read from the database when stale. */
export class FollowerView implements ViewSource {
	readonly view = new LiveView();
	/** Until when (ms, this clock) the copy may be used: the holder's lease as last read. */
	#validUntil = 0;
	#loading: Promise<void> | null = null;
	#again = false;
	#waiters: Array<() => void> = [];
	/** Reads of the database made, for /healthz. */
	reads = 0;
	/**
	 * GET /me of the streamer's credential, read once by this instance and kept (account.ts), given
	 * while the last read found a holder's lease: its socket is what says the credential works.
	 */
	readonly account: AccountRead;
	#held = false;

	/**
	 * `deadline`: the instance's, shared by every copy: a page's read waits for the database as a
	 * start waits for a store, briefly, and not at all while it is away (src/server/deadline.ts).
	 */
	constructor(
		private readonly db: Db,
		private readonly streamer: string,
		private readonly deadline: StoreDeadline,
		upstream: AccountUpstream,
		private readonly now: () => number = Date.now
	) {
		this.view.gap();
		this.account = new AccountRead(upstream, () => {
			this.touch();
			return this.#held;
		});
	}

	/** A page is about to read: a stale copy is read again (the page waits for it, page-reads.ts). */
	touch(): void {
		if (this.now() < this.#validUntil) return;
		this.view.gap();
		this.#load();
	}

	/** The holder wrote these parts: the copy is read again. */
	told(parts: readonly string[]): void {
		for (const part of parts)
			if ((VIEW_PARTS as readonly string[]).includes(part)) this.view.owe(part as ViewPart);
		this.#load();
	}

	/**
	 * A page asked for what the copy does not hold (a goal of an overlay made later): only the
	 * holder reads the upstream, so the copy reads what the holder wrote, in case it has it since.
	 */
	readAgain(): void {
		this.#load();
	}

	/** Notices may have been missed (LISTEN lost or back): nothing is trusted until read again. */
	lost(): void {
		this.view.gap();
		this.#validUntil = 0;
	}

	pending(): boolean {
		return this.#loading !== null;
	}

	changed(): Promise<void> {
		return new Promise((resolve) => this.#waiters.push(resolve));
	}

	status() {
		return { connected: false, connects: 0, reads: this.reads, lacking: [] };
	}

	#load(): void {
		if (this.#loading) {
			this.#again = true;
			return;
		}
		this.#loading = this.#read().finally(() => {
			this.#loading = null;
			if (this.#again) {
				this.#again = false;
				this.#load();
			}
			for (const resolve of this.#waiters.splice(0)) resolve();
		});
	}

	async #read(): Promise<void> {
		this.reads += 1;
		const started = this.now();
		const query = sql<{ part: string | null; body: unknown; ttl_ms: number }>`
			select v.part, v.body,
				greatest(0, extract(epoch from l.expires_at - now()) * 1000)::float8 as ttl_ms
			from intake_leases l
			left join view_parts v on v.streamer_id = l.streamer_id and v.epoch = l.epoch
			where l.streamer_id = ${this.streamer} and l.expires_at > now()`.execute(this.db);
		const inTime = await this.deadline.wait(query).catch(() => ({ done: false as const }));
		if (!inTime.done) {
			// The database away or slow: the pages' reads go upstream meanwhile, and a late answer
			// is let go (the next read after NO_HOLDER_MS asks again).
			this.view.gap();
			this.#held = false;
			this.#validUntil = started + NO_HOLDER_MS;
			return;
		}
		const { rows } = inTime.value;
		this.#held = rows.length > 0;
		const bodies = new Map(rows.map((r) => [r.part, jsonColumn(r.body)]));
		const seen = bodies.get(SEEN_ROW);
		if (Array.isArray(seen)) this.view.noteSeen(seen.filter((id) => typeof id === 'string'));
		// The parts are kept as the holder wrote them from its own view, whose reads were checked.
		for (const part of VIEW_PARTS) {
			const body = bodies.get(part);
			if (body) this.view.applySnapshot(part, body as Snapshots[ViewPart], started);
			else this.view.owe(part);
		}
		this.#validUntil = started + (rows.length ? Number(rows[0].ttl_ms) : NO_HOLDER_MS);
	}
}
