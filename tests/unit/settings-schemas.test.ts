// The stored settings' check (widgets/settings/schemas.ts), which the token endpoint applies to every
// save: a name a target does not take or one that stays in each source's URL is refused, a bad
// value is named, an overlay target takes the parameters of every widget its page places, and a
// widget's URL goes to stored values and back to the same parsed parameters.
import { describe, expect, it } from 'vitest';
import { PER_SOURCE_PARAMS, SettingsValues } from '../../src/contract/index.ts';
import {
	checkSettings,
	normalizeSettings,
	SETTINGS_KINDS,
	storedNames
} from '../../widgets/settings/schemas.ts';

const KEY = 'unit-test-overlay-key-0123';
const perSource = new Set<string>(PER_SOURCE_PARAMS);

describe('checkSettings', () => {
	it('refuses a name the target does not take, naming it and the target', () => {
		expect(checkSettings('media', { limit: '5' })).toEqual([
			'limit: not a setting of the media widget'
		]);
		expect(checkSettings('o_1a2b3c4d', { limit: '5' })).toEqual([
			'limit: not a setting of overlay o_1a2b3c4d'
		]);
		expect(checkSettings('dock', {})).toEqual(['"dock" is not a widget or an overlay id']);
	});

	it('refuses every per-source parameter: a stored key or instance would make every source one', () => {
		for (const name of PER_SOURCE_PARAMS) {
			const value = name === 'overlay' ? 'o_1a2b3c4d' : name === 'key' ? KEY : '1';
			expect(checkSettings('tts', { [name]: value })).toEqual([
				`${name}: stays in each source's URL, it is not a stored setting`
			]);
			expect(storedNames('o_1a2b3c4d')).not.toContain(name);
		}
	});

	it('names every bad value, each once', () => {
		const errors = checkSettings('media', { volume: '2', size: '9', with_tts: 'loud' });
		expect(errors.map((e) => e.split(':')[0]).sort()).toEqual(['size', 'volume', 'with_tts']);
		expect(checkSettings('counters', { format: 'roman' })).toEqual([
			expect.stringMatching(/^format: /)
		]);
		expect(checkSettings('celebration', { intensity: '0' })).toEqual([
			expect.stringMatching(/^intensity: /)
		]);
	});

	it('an overlay target takes the TTS (tiers included), media_volume and counters names', () => {
		const values = {
			look: 'neon',
			tier1_from: '10',
			tier1_look: 'gold',
			tier1_sound: 'coin',
			volume: '0.6',
			media_volume: '0.3',
			with_tts: 'hold',
			name: 'hugs',
			label: 'Hugs',
			style: 'fireworks'
		};
		expect(checkSettings('o_1a2b3c4d', values)).toEqual([]);
		// The videos' volume is named as the overlay page names it.
		expect(checkSettings('o_1a2b3c4d', { media_volume: '3' })).toEqual([
			expect.stringMatching(/^media_volume: /)
		]);
		// A widget page has no media_volume: its own volume is the one.
		expect(checkSettings('media', { media_volume: '0.3' })).toEqual([
			'media_volume: not a setting of the media widget'
		]);
	});

	it('the tip goal is checked without its overlay, which each source names', () => {
		expect(checkSettings('tip-goal', { accent: '#ffcc00', position: 'top' })).toEqual([]);
	});

	it('checks colour names as a browser does', () => {
		expect(checkSettings('recent', { color: 'rebeccapurple', accent: 'ff0000' })).toEqual([]);
		expect(checkSettings('recent', { color: 'inherit' })).toEqual([
			expect.stringMatching(/^color: /)
		]);
	});
});

describe('normalizeSettings', () => {
	it('trims values and leaves out empty ones (an empty value is unset)', () => {
		expect(normalizeSettings({ accent: '  gold ', look: '', font: '   ' })).toEqual({
			accent: 'gold'
		});
	});
});

/** A widget's URL for each kind, with per-source parameters and stored ones mixed. */
const URLS: Record<keyof typeof SETTINGS_KINDS, string> = {
	tts: `instance=left&debug=1&volume=0.4&accent=gold&look=neon&tier1_from=10&tier1_look=gold&tier1_sound=coin&tier2_from=50&tier2_image=https://example.com/a.gif&position=bottom&font=Comic%20Neue,%20sans-serif&sample_kind=sub`,
	media: 'instance=right&volume=0.7&with_tts=hold&size=0.5&info=off&position=top&color=%23fff',
	'tip-goal': 'overlay=o_1a2b3c4d&widget=w_goal&color=%23ffcc00&scale=1.5&position=top',
	counters: 'overlay=o_1a2b3c4d&widget=w_main_counters&name=hugs&label=Hugs&format=compact',
	celebration: 'overlay=o_1a2b3c4d&style=fireworks&intensity=2&duration=6',
	recent: 'limit=3&position=top-right&accent=teal',
	leaderboard: 'limit=4&scale=0.8&debug=1'
};

describe('a URL to stored settings and back', () => {
	it.each(Object.entries(URLS))('%s: the same parameters parsed', (kind, query) => {
		const { parse } = SETTINGS_KINDS[kind as keyof typeof SETTINGS_KINDS];
		const url = new URLSearchParams(`key=${KEY}&${query}`);
		const names = new Set(storedNames(kind as keyof typeof SETTINGS_KINDS));
		// What the editor stores of a pasted URL: every parameter that is not the source's own.
		for (const name of url.keys()) expect(names.has(name) || perSource.has(name)).toBe(true);
		const stored = normalizeSettings(
			Object.fromEntries([...url].filter(([name]) => names.has(name)))
		);
		expect(checkSettings(kind, stored)).toEqual([]);
		// As the token endpoint keeps them and a page reads them back.
		const read = SettingsValues.parse(JSON.parse(JSON.stringify(stored)));
		const back = new URLSearchParams([...url].filter(([name]) => perSource.has(name)));
		for (const [name, value] of Object.entries(read)) back.set(name, value);
		const before = parse(url);
		expect(before.ok).toBe(true);
		expect(parse(back)).toEqual(before);
	});
});
