// Stored settings on a widget page (docs/settings.md): the streamer's URL parameters kept
// by the token endpoint (GET /settings), merged under the page's own URL, and followed live: the
// push channel says when a target was saved or undone (`settings`), or when everything must be read
// again (`hello`, `resync`); then the page reads GET /settings once more and hands each widget the
// parameters that changed. No poll, no timer: nothing runs while nothing is saved.
import type { LiveMessage } from '../contract/live.ts';
import { PER_SOURCE_PARAMS, StoredSettings, type SettingsWidget } from '../contract/settings.ts';
import { coalesced } from '../core/coalesce.ts';
import type { ApiClient } from './api.ts';
import type { EventHub } from './event-hub.ts';
import type { ParamResult } from './params.ts';

/** Where a parameter's value came from (a parameter absent from all three has its default). */
export type SettingSource = 'URL' | 'overlay settings' | 'stored settings';

/** Rows of a debug panel (label, value), shown as text. */
export type SettingsRows = ReadonlyArray<readonly [label: string, value: string]>;

export interface MergedSettings {
	/** The query a widget's parser reads: the URL's parameters over the stored ones. */
	query: URLSearchParams;
	sources: Record<string, SettingSource>;
}

const perSource = new Set<string>(PER_SOURCE_PARAMS);

/**
 * One widget's parameters, strongest first: its URL's, the overlay target's (an overlay page's
 * widgets), its kind's stored ones. Per-source parameters never come from stored settings; an
 * empty URL value is unset (as the parsers read it), so a stored value shows through it. The media
 * widget of an overlay page reads the videos' loudness as `media_volume` (media/params.ts): its
 * kind's `volume` is written so, and then wins over the page URL's `volume`, the speech's.
 */
export function mergeSettings(
	stored: StoredSettings | null,
	kind: SettingsWidget,
	url: URLSearchParams,
	overlayId?: string
): MergedSettings {
	const query = new URLSearchParams();
	const sources: Record<string, SettingSource> = {};
	const layer = (values: Record<string, string> | undefined, source: SettingSource) => {
		for (const [stored, value] of Object.entries(values ?? {})) {
			if (perSource.has(stored) || value.trim() === '') continue;
			const name = overlayId && kind === 'media' && stored === 'volume' ? 'media_volume' : stored;
			query.set(name, value);
			sources[name] = source;
		}
	};
	layer(stored?.targets[kind], 'stored settings');
	if (overlayId) layer(stored?.targets[overlayId], 'overlay settings');
	const seen = new Set<string>();
	for (const [name, value] of url) {
		// A repeated parameter counts with its first value, as the parsers read it.
		if (seen.has(name)) continue;
		seen.add(name);
		if (value.trim() === '') continue;
		query.set(name, value);
		sources[name] = 'URL';
	}
	return { query, sources };
}

/** `sample=1`: the page shows exactly its URL (the editor's live sample), stored settings unread. */
export function ignoresStoredSettings(url: URLSearchParams): boolean {
	return ['1', 'true', 'on', 'yes'].includes((url.get('sample') ?? '').trim().toLowerCase());
}

/** The query as one text, whatever the order of its parameters (to tell a changed set). */
function canonical(query: URLSearchParams): string {
	const q = new URLSearchParams(query);
	q.sort();
	return q.toString();
}

type Read = { ok: true; settings: StoredSettings } | { ok: false; error: string };

async function readSettings(api: Pick<ApiClient, 'send'>): Promise<Read> {
	const res = await api.send('settings', 'GET', '/settings');
	if (!res.ok)
		return {
			ok: false,
			error: res.kind === 'http' ? `the server answered ${res.status}` : res.error
		};
	const parsed = StoredSettings.safeParse(res.body);
	return parsed.success
		? { ok: true, settings: parsed.data }
		: { ok: false, error: 'the answer was not stored settings' };
}

/** What a widget does with its parameters when the stored settings change. */
export interface SettingsTaker<P> {
	/** A changed set that parsed: applied as the widget's rules say (never cutting what plays). */
	applySettings(params: P): void;
	/** Where each parameter came from and the settings' revision, for the debug panel. */
	showSettings?(rows: SettingsRows): void;
}

/**
 * The stored settings of one page: read before its widgets start, read again on the push
 * channel's word, and merged for each of its widgets (PageSettings.widget).
 */
export class PageSettings {
	readonly #api: Pick<ApiClient, 'send'>;
	readonly #used: boolean;
	readonly #warn: (message: string) => void;
	readonly #warned = new Set<string>();
	readonly #widgets: WidgetSettings<unknown>[] = [];
	readonly #targets = new Set<string>();
	#stored: StoredSettings | null = null;
	#failure: string | null = null;

	/** `used` false (sample=1): nothing is read, every widget has its URL alone. */
	constructor(
		api: Pick<ApiClient, 'send'>,
		used: boolean,
		warn: (message: string) => void = (m) => console.warn(m)
	) {
		this.#api = api;
		this.#used = used;
		this.#warn = warn;
	}

	get stored(): StoredSettings | null {
		return this.#stored;
	}

	/** The page's first read: a failure leaves the URL alone (or what was read before). */
	async read(): Promise<void> {
		if (!this.#used) return;
		const r = await readSettings(this.#api);
		if (r.ok) this.#stored = r.settings;
		this.#failure = r.ok ? null : r.error;
	}

	/** One widget of the page: its kind, its own URL query, and the overlay page it is on. */
	widget<P>(
		kind: SettingsWidget,
		url: URLSearchParams,
		parse: (q: URLSearchParams) => ParamResult<P>,
		overlayId?: string
	): WidgetSettings<P> {
		const w = new WidgetSettings<P>(this, { kind, url, parse, overlayId });
		this.#widgets.push(w as WidgetSettings<unknown>);
		this.#targets.add(kind);
		if (overlayId) this.#targets.add(overlayId);
		return w;
	}

	/** Reads again when the push channel says so; returns the unsubscribe. */
	listen(events: EventHub): () => void {
		return events.subscribe({ live: (m) => this.#heard(m) });
	}

	#heard(m: LiveMessage): void {
		if (!this.#used) return;
		if (m.type === 'settings') {
			// Another target's save, or the revision this page already has: nothing to read.
			if (m.target !== undefined && !this.#targets.has(m.target)) return;
			if (m.version !== undefined && m.version === this.#stored?.revision) return;
		} else if (m.type !== 'hello' && m.type !== 'resync') return;
		void this.refresh();
	}

	/** Reads again and hands each widget what changed; one read at a time (one more after it). */
	readonly refresh = coalesced(async () => {
		await this.read();
		for (const w of this.#widgets) {
			try {
				w.update();
			} catch (err) {
				// One widget's bug must not keep the others on their old settings.
				console.error('[settings] a widget failed to apply its settings', err);
			}
		}
	});

	/** The settings' state in a row of a debug panel. */
	statusRow(refused: string | null): readonly [string, string] {
		if (!this.#used) return ['settings', 'not used (sample=1)'];
		const rev = this.#stored ? `revision ${this.#stored.revision}` : null;
		const text = this.#failure
			? `read failed (${this.#failure}); ${rev ? `${rev} kept` : 'the URL alone'}`
			: (rev ?? 'not read');
		return ['settings', refused ? `${text}; refused: ${refused}` : text];
	}

	/** Logs a refused set once (the page keeps its parameters; every read finds it again). */
	warnOnce(key: string, message: string): void {
		if (this.#warned.has(key)) return;
		this.#warned.add(key);
		this.#warn(message);
	}
}

interface WidgetSpec<P> {
	kind: SettingsWidget;
	url: URLSearchParams;
	parse: (q: URLSearchParams) => ParamResult<P>;
	overlayId?: string;
}

/** One widget's merge: the parameters it has, and what it is handed when they change. */
export class WidgetSettings<P> {
	readonly #page: PageSettings;
	readonly #spec: WidgetSpec<P>;
	#applied = '';
	#merged: MergedSettings = { query: new URLSearchParams(), sources: {} };
	/** The first problem of the last set refused (null: the last one applied). */
	#refused: string | null = null;
	#taker: SettingsTaker<P> | null = null;

	constructor(page: PageSettings, spec: WidgetSpec<P>) {
		this.#page = page;
		this.#spec = spec;
	}

	/**
	 * The parameters the widget starts with: merged, or, when the merge does not parse, its URL
	 * alone (`own`, which the page has parsed already).
	 */
	initial(own: P): P {
		const r = this.#take();
		if (r !== null) return r;
		this.#merged = mergeSettings(null, this.#spec.kind, this.#spec.url);
		this.#applied = canonical(this.#merged.query);
		return own;
	}

	/** From now on, changes go to `taker`. */
	bind(taker: SettingsTaker<P>): void {
		this.#taker = taker;
		this.#show();
	}

	/** After a read: a changed set that parses goes to the widget; one that does not is refused. */
	update(): void {
		const r = this.#take();
		if (r !== null) this.#taker?.applySettings(r);
		this.#show();
	}

	/** Where each parameter of the set the widget has came from (the key left out). */
	rows(): SettingsRows {
		const { query, sources } = this.#merged;
		const rows: (readonly [string, string])[] = [this.#page.statusRow(this.#refused)];
		for (const [name, source] of Object.entries(sources))
			if (name !== 'key') rows.push([name, `${query.get(name)} (${source})`]);
		return rows;
	}

	/** The merged set when it changed and parses (then it is the widget's), else null. */
	#take(): P | null {
		const { kind, url, parse, overlayId } = this.#spec;
		const merged = mergeSettings(this.#page.stored, kind, url, overlayId);
		const key = canonical(merged.query);
		if (key === this.#applied) {
			this.#refused = null;
			return null;
		}
		const r = parse(merged.query);
		if (!r.ok) {
			this.#refused = r.errors[0] ?? 'does not parse';
			this.#page.warnOnce(
				key,
				`[settings] the stored settings of the ${kind} widget were refused, it keeps its parameters: ${r.errors.join('; ')}`
			);
			return null;
		}
		this.#refused = null;
		this.#applied = key;
		this.#merged = merged;
		return r.value;
	}

	#show(): void {
		this.#taker?.showSettings?.(this.rows());
	}
}
