// The dock's Activity (docs/dock.md, "Activity"): the recorded entries newest first, as GET
// /control/activity pages them (a kind filter, a name search, a cursor for More), the summary of
// this stream, Replay, Export CSV and Delete history. Read when it opens and whenever the push
// channel says the Activity changed (`activity`, and `hello`/`resync` after a reconnect): never
// polled. Idle, nothing runs: one-shot timers only (a search typed, a burst of changes).
import type { LiveMessage } from '../../src/contract/index.ts';
import type { ActivityEntry, ActivityKind, ActivitySummary } from '../../src/contract/activity.ts';
import { actionOutcome, readFailure, type Outcome } from './actions.ts';
import { ActivityClient } from './activity-client.ts';
import { exportName, localToIso } from './activity-format.ts';
import type { DockPart } from './dock-live.ts';
import type { DockState } from './dock.svelte.ts';

/** Entries a page reads (More reads as many again). */
const ACTIVITY_PAGE = 30;
/** The server's largest page: a refresh reads the loaded entries again up to this many. */
const MAX_PAGE = 100;
/** A name typed is searched this long after the last key. */
const SEARCH_MS = 250;
/** Changes in a burst are read once, this long after the first. */
const REFRESH_MS = 150;

/** Outcomes of the section's own buttons (Outcome.svelte shows them by these ids). */
export const ACTIVITY_IDS = {
	export: 'activity-export',
	delete: 'activity-delete',
	start: 'activity-start',
	replay: (entryId: string) => `activity-replay:${entryId}`
};

type Problem = string | null;

export class DockActivity implements DockPart {
	/** The entries read so far, newest first; null until the first page is read. */
	entries = $state.raw<ActivityEntry[] | null>(null);
	/** The next (older) page's cursor; null when every entry is shown. */
	cursor = $state<string | null>(null);
	loading = $state<'first' | 'more' | null>(null);
	problem = $state<Problem>(null);
	/** The kind filter ('' everything) and the name searched. */
	kind = $state<ActivityKind | ''>('');
	q = $state('');
	summary = $state.raw<ActivitySummary | null>(null);
	summaryProblem = $state<Problem>(null);
	/** The hidden messages the streamer pressed Show on, by entry id. */
	shown = $state<Record<string, true>>({});
	/** Export's range, as the date-time inputs hold it ('' no bound). */
	exportFrom = $state('');
	exportTo = $state('');
	/** Delete history asks once more before it deletes. */
	confirmDelete = $state(false);

	readonly #dock: DockState;
	readonly #client: ActivityClient;
	/** The latest list read: an earlier one's answer is dropped. */
	#reads = 0;
	#summaries = 0;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#closed = false;

	constructor(dock: DockState) {
		this.#dock = dock;
		this.#client = new ActivityClient(dock.client.control);
	}

	/** Reads the first page and the summary, and follows the push channel from now on. */
	start(): this {
		this.#dock.attach(this);
		if (!this.#closed) void this.refresh();
		return this;
	}

	close(): void {
		this.#closed = true;
		this.#later(null);
	}

	/** The push channel: what changed is read again (one read for a burst). */
	onLive(m: LiveMessage): void {
		if (m.type === 'activity' || m.type === 'hello' || m.type === 'resync')
			this.#later(() => void this.refresh(), REFRESH_MS);
	}

	#later(run: (() => void) | null, ms = 0): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
		if (run === null || this.#closed) return;
		this.#timer = setTimeout(() => {
			this.#timer = null;
			run();
		}, ms);
	}

	/** The filter or the search changed: the list from its first page (a search once typed). */
	filter(typed = false): void {
		this.#later(
			() => {
				this.entries = null;
				this.cursor = null;
				void this.refresh();
			},
			typed ? SEARCH_MS : 0
		);
	}

	/** The query the list shows now. */
	#query() {
		return { kinds: this.kind ? [this.kind] : [], q: this.q };
	}

	/**
	 * The first page again, as long as what is shown (up to the server's largest page), and the
	 * summary: new entries come first, changed ones change in place, older pages stay as read.
	 */
	async refresh(): Promise<void> {
		const n = ++this.#reads;
		const shown = this.entries?.length ?? 0;
		const limit = Math.min(MAX_PAGE, Math.max(ACTIVITY_PAGE, shown));
		if (this.entries === null) this.loading = 'first';
		void this.readSummary();
		const res = await this.#client.list({ ...this.#query(), limit });
		if (n !== this.#reads || this.#closed) return;
		this.loading = null;
		this.problem = res.ok ? null : `could not read the Activity: ${readFailure(res)}`;
		if (!res.ok) return;
		const page = res.body.entries;
		if (shown <= limit || this.entries === null) {
			this.entries = page;
			this.cursor = res.body.next_cursor;
			return;
		}
		const fresh = new Set(page.map((e) => e.id));
		const last = page.at(-1)?.at ?? '';
		const older = this.entries.filter((e) => !fresh.has(e.id) && e.at <= last);
		this.entries = [...page, ...older];
	}

	/** More: the next (older) page after what is shown. */
	async more(): Promise<void> {
		if (this.cursor === null || this.loading !== null || this.entries === null) return;
		const n = ++this.#reads;
		this.loading = 'more';
		const res = await this.#client.list({
			...this.#query(),
			cursor: this.cursor,
			limit: ACTIVITY_PAGE
		});
		if (n !== this.#reads || this.#closed) return;
		this.loading = null;
		this.problem = res.ok ? null : `could not read more: ${readFailure(res)}`;
		if (!res.ok) return;
		const have = new Set(this.entries.map((e) => e.id));
		this.entries = [...this.entries, ...res.body.entries.filter((e) => !have.has(e.id))];
		this.cursor = res.body.next_cursor;
	}

	async readSummary(): Promise<void> {
		const n = ++this.#summaries;
		const res = await this.#client.summary();
		if (n !== this.#summaries || this.#closed) return;
		this.summaryProblem = res.ok ? null : `could not read the summary: ${readFailure(res)}`;
		if (res.ok) this.summary = res.body;
	}

	/** The streamer's start of this stream (an ISO date-time), or null: the kit's own again. */
	setStart(at: string | null): Promise<void> {
		return this.#dock.press(ACTIVITY_IDS.start, async () => {
			const res = await this.#client.setStart(at);
			if (!res.ok) return actionOutcome(res);
			this.#summaries++;
			this.summary = res.body;
			return done(at === null ? 'the start is the kit’s again' : 'start set');
		});
	}

	/** Replay of a tip or a video: queued again once, or "already in the queue", or why not. */
	replay(entry: Extract<ActivityEntry, { kind: 'tip' | 'video' }>): Promise<void> {
		const queue = entry.kind === 'tip' ? 'tts' : 'media';
		return this.#dock.press(ACTIVITY_IDS.replay(entry.id), async () => {
			const res = await this.#client.replay(entry.order_id, queue);
			if (!res.ok) return actionOutcome(res);
			const { outcome, message } = res.body;
			return outcome === 'in_queue'
				? { kind: 'already', text: message || 'already in the queue', reread: false }
				: done(message || 'queued again');
		});
	}

	/** Export CSV of the chosen range (and the kind shown): a download, oldest first. */
	exportCsv(): Promise<void> {
		return this.#dock.press(ACTIVITY_IDS.export, async () => {
			const from = localToIso(this.exportFrom);
			const to = localToIso(this.exportTo);
			if (from === undefined || to === undefined)
				return refused('the range is not a date and time: correct it and press Export again');
			if (from && to && from >= to) return refused('“From” must be before “To”');
			const kinds = this.kind ? [this.kind] : [];
			const res = await this.#client.exportCsv({ from, to, kinds });
			if (!res.ok) return actionOutcome(res);
			const name = exportName(this.exportFrom, this.exportTo);
			download(res.body, name);
			return done(`downloaded ${name}`);
		});
	}

	/** Delete history, once confirmed: every recorded entry goes, and the list empties. */
	deleteAll(): Promise<void> {
		return this.#dock.press(ACTIVITY_IDS.delete, async () => {
			const res = await this.#client.deleteAll();
			this.confirmDelete = false;
			if (!res.ok) return actionOutcome(res);
			this.shown = {};
			void this.refresh();
			const n = res.body.deleted;
			return done(`deleted ${n} ${n === 1 ? 'entry' : 'entries'}`);
		});
	}
}

const done = (text: string): Outcome => ({ kind: 'done', text, reread: false });
const refused = (text: string): Outcome => ({ kind: 'refused', text, reread: false });

/** Hands the CSV to the browser as a file download (the credential never goes into a URL). */
function download(csv: string, name: string): void {
	const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
	const a = document.createElement('a');
	a.href = url;
	a.download = name;
	a.rel = 'noopener';
	document.body.append(a);
	a.click();
	a.remove();
	// The download has its own copy by the next task; a one-shot timer, not an interval.
	setTimeout(() => URL.revokeObjectURL(url), 1000);
}
