// The counters on screen as plain data: a snapshot (GET /counters) merged with the events that
// arrived while it was being read, and each event applied in place. Pure, so every rule is
// unit-tested without a browser (STYLE.md, practice 1).
import { COUNTER_NAME, type Counter, type Overlay } from '../../src/contract/index.ts';
import type { CounterView } from './view.ts';

/** What the events since a snapshot request said about a counter: its value, or null = deleted. */
export type Touched = ReadonlyMap<string, number | null>;

/** counter.updated: the value changes in place (a bump), an unknown counter is appended. */
export function upsertCounter(
	list: readonly CounterView[],
	name: string,
	value: number
): CounterView[] {
	const i = list.findIndex((c) => c.name === name);
	if (i < 0) return [...list, { name, value, bumps: 0 }];
	const old = list[i];
	if (old.value === value) return list as CounterView[];
	const next = list.slice();
	next[i] = { name, value, bumps: old.bumps + 1 };
	return next;
}

/** counter.deleted: the counter disappears. */
export function removeCounter(list: readonly CounterView[], name: string): CounterView[] {
	return list.some((c) => c.name === name)
		? list.filter((c) => c.name !== name)
		: (list as CounterView[]);
}

/**
 * The snapshot is the truth (docs/upstream.md: events are hints), except for counters that events
 * changed while it was on its way: those keep what the newer event said. A value that differs
 * from what was shown bumps, as an event would have.
 */
export function mergeSnapshot(
	shown: readonly CounterView[],
	snapshot: readonly Counter[],
	touched: Touched
): CounterView[] {
	const before = new Map(shown.map((c) => [c.name, c]));
	const out: CounterView[] = [];
	const seen = new Set<string>();
	for (const c of snapshot) {
		if (seen.has(c.name)) continue;
		seen.add(c.name);
		const t = touched.get(c.name);
		if (t === null) continue;
		const value = t === undefined ? c.value : t;
		const old = before.get(c.name);
		out.push({ name: c.name, value, bumps: old ? old.bumps + (old.value === value ? 0 : 1) : 0 });
	}
	// Created by an event after the snapshot was taken.
	for (const [name, value] of touched) {
		if (value === null || seen.has(name)) continue;
		const old = before.get(name);
		out.push({ name, value, bumps: old ? old.bumps + (old.value === value ? 0 : 1) : 0 });
	}
	return out;
}

/** Which counter an overlay's counter widget names in its settings (docs/upstream.md, overlay). */
export type SettingsPick = { ok: true; name: string | null } | { ok: false; problem: string };

/** `settings.name` of a counter widget: a valid slug picks it; absent means every counter. */
export function nameFromSettings(
	settings: Readonly<Record<string, unknown>> | undefined
): SettingsPick {
	const name = settings?.name;
	if (name === undefined || name === null || name === '') return { ok: true, name: null };
	if (typeof name === 'string' && COUNTER_NAME.test(name)) return { ok: true, name };
	return { ok: false, problem: 'settings.name is not a counter name; showing every counter' };
}

/** Finds the widget in the overlays and reads its settings. */
export function nameFromOverlays(overlays: readonly Overlay[], widgetId: string): SettingsPick {
	for (const o of overlays) {
		const w = o.widgets.find((x) => x.id === widgetId);
		if (w) return nameFromSettings(w.settings);
	}
	return { ok: false, problem: `no widget ${widgetId} in the overlay; showing every counter` };
}
