// The counters widget's pure parts: URL parameters, number formats, and how the list on screen
// follows snapshots and events.
import { describe, expect, it } from 'vitest';
import type { Counter } from '../../src/contract/index.ts';
import {
	mergeSnapshot,
	nameFromOverlays,
	nameFromSettings,
	removeCounter,
	upsertCounter
} from '../../widgets/counters/counter-list.ts';
import { formatCount } from '../../widgets/counters/format.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { withPlace } from '../../widgets/shared/place-params.ts';
import type { CounterView } from '../../widgets/counters/view.ts';

const KEY = 'abcdefghijklmnop1234';
const at = '2025-01-01T00:00:00.000Z';
const counter = (name: string, value: number): Counter => ({
	name,
	value,
	created_at: at,
	updated_at: at
});
const view = (name: string, value: number, bumps = 0): CounterView => ({ name, value, bumps });

describe('counters widget parameters', () => {
	it('only the key is required: every counter, grouped, top-left', () => {
		const r = parseCountersParams(`?key=${KEY}`);
		expect(r.ok && r.value).toEqual({
			key: KEY,
			format: 'grouped',
			debug: false,
			sample: false,
			scale: 1,
			position: 'top-left'
		});
	});

	it('takes a counter name, a label, a format, an overlay widget and a theme', () => {
		const r = parseCountersParams(
			`?key=${KEY}&name=Deaths&label=${encodeURIComponent('Tode ☠')}&format=COMPACT` +
				'&overlay=o_5e6f7a8b&widget=w_chat_deaths&debug=1&color=ff0000&position=bottom-right'
		);
		if (!r.ok) throw new Error(r.errors.join('; '));
		expect(r.value).toMatchObject({
			name: 'deaths',
			label: 'Tode ☠',
			format: 'compact',
			overlay: 'o_5e6f7a8b',
			widget: 'w_chat_deaths',
			debug: true,
			color: '#ff0000',
			scale: 1,
			position: 'bottom-right'
		});
		expect([r.value.font, r.value.accent]).toEqual([undefined, undefined]);
	});

	it('names every bad parameter in one sentence each', () => {
		const r = parseCountersParams(
			`?key=${KEY}&name=no%20spaces&format=fancy&overlay=o_123&widget=a/b&label=${'x'.repeat(65)}`
		);
		expect(r.ok).toBe(false);
		if (r.ok) return;
		expect(r.errors.map((e) => e.split(':')[0])).toEqual([
			'name',
			'label',
			'format',
			'overlay',
			'widget'
		]);
		expect(r.errors[2]).toBe('format: expected plain, grouped or compact, got "fancy"');
	});

	it("inside an overlay page the widget's place is set and the page's theme kept", () => {
		const r = parseCountersParams(
			withPlace(`?key=${KEY}&format=plain`, 'o_5e6f7a8b', 'w_chat_deaths')
		);
		expect(r.ok && r.value).toMatchObject({
			overlay: 'o_5e6f7a8b',
			widget: 'w_chat_deaths',
			format: 'plain'
		});
	});

	it('refuses a label with control characters and a missing key', () => {
		const r = parseCountersParams('?label=a%0Ab');
		expect(r.ok).toBe(false);
		if (r.ok) return;
		expect(r.errors[0]).toMatch(/^key: missing/);
		expect(r.errors[1]).toMatch(/^label: expected/);
	});
});

describe('formatCount', () => {
	it('plain writes the integer as it is', () => {
		expect(formatCount(1234567, 'plain', 'en-US')).toBe('1234567');
		expect(formatCount(-42, 'plain')).toBe('-42');
	});
	it('grouped uses the locale separators', () => {
		expect(formatCount(1234567, 'grouped', 'en-US')).toBe('1,234,567');
		expect(formatCount(1234567, 'grouped', 'de-DE')).toBe('1.234.567');
		expect(formatCount(-1000, 'grouped', 'en-US')).toBe('-1,000');
	});
	it('compact shortens large numbers with one decimal at most', () => {
		expect(formatCount(999, 'compact', 'en-US')).toBe('999');
		expect(formatCount(12_345, 'compact', 'en-US')).toBe('12.3K');
		expect(formatCount(1_250_000, 'compact', 'en-US')).toBe('1.3M');
	});
});

describe('the counter list', () => {
	it('an update changes the value in place and bumps; the same value does not', () => {
		const list = [view('a', 1), view('b', 2)];
		const next = upsertCounter(list, 'b', 3);
		expect(next).toEqual([view('a', 1), view('b', 3, 1)]);
		expect(upsertCounter(next, 'b', 3)).toBe(next);
	});

	it('an unknown counter from an event is appended; a deleted one disappears', () => {
		const list = upsertCounter([view('a', 1)], 'new', 5);
		expect(list).toEqual([view('a', 1), view('new', 5)]);
		expect(removeCounter(list, 'a')).toEqual([view('new', 5)]);
		expect(removeCounter(list, 'zzz')).toBe(list);
	});

	it('a snapshot is the truth, in its order, and a changed value bumps', () => {
		const shown = [view('a', 1, 2), view('gone', 9)];
		const merged = mergeSnapshot(shown, [counter('b', 4), counter('a', 7)], new Map());
		expect(merged).toEqual([view('b', 4), view('a', 7, 3)]);
	});

	it('events that arrived while the snapshot was read win over it', () => {
		const touched = new Map<string, number | null>([
			['a', 10],
			['b', null],
			['c', 3]
		]);
		const merged = mergeSnapshot(
			[view('a', 10, 1)],
			[counter('a', 9), counter('b', 1), counter('d', 0)],
			touched
		);
		expect(merged).toEqual([view('a', 10, 1), view('d', 0), view('c', 3)]);
	});
});

describe("the overlay widget's settings", () => {
	const overlay = {
		id: 'o_5e6f7a8b',
		name: 'x',
		width: 1280,
		height: 720,
		widgets: [
			{ id: 'w_one', type: 'counter', settings: { name: 'deaths' } },
			{ id: 'w_all', type: 'counter', settings: {} },
			{ id: 'w_bad', type: 'counter', settings: { name: 'Not A Slug' } }
		]
	};
	it('settings.name picks the counter; no name means every counter', () => {
		expect(nameFromOverlays([overlay], 'w_one')).toEqual({ ok: true, name: 'deaths' });
		expect(nameFromOverlays([overlay], 'w_all')).toEqual({ ok: true, name: null });
		expect(nameFromSettings(undefined)).toEqual({ ok: true, name: null });
	});
	it('a bad name or an unknown widget falls back to every counter with a note', () => {
		expect(nameFromOverlays([overlay], 'w_bad').ok).toBe(false);
		expect(nameFromOverlays([overlay], 'w_nope')).toEqual({
			ok: false,
			problem: 'no widget w_nope in the overlay; showing every counter'
		});
	});
});
