// The TTS widget's URL parameters: defaults, one readable error per bad parameter, and values that
// would become CSS (colours, fonts) held to strict allowlists.
import { describe, expect, it } from 'vitest';
import { numberIn, param, paramDocsMarkdown, parseParams } from '../../src/client/params.ts';
import {
	TTS_PARAM_DOCS,
	parseTtsParams,
	ttsParamFields,
	type TtsParams
} from '../../widgets/tts/params.ts';
import { DEFAULT_LADDER, baseTierFields } from '../../widgets/tts/tiers.ts';

const KEY = 'abcdefghijklmnop1234';

function ok(query: string): TtsParams {
	const result = parseTtsParams(query);
	if (!result.ok) throw new Error(`refused: ${result.errors.join('; ')}`);
	return result.value;
}

function errors(query: string): string[] {
	const result = parseTtsParams(query);
	if (result.ok) throw new Error(`accepted ${query}`);
	return result.errors;
}

/** The one error for `name` when only that parameter is bad. */
function errorFor(name: string, value: string): string {
	const errs = errors(`?key=${KEY}&${name}=${encodeURIComponent(value)}`);
	expect(errs).toHaveLength(1);
	expect(errs[0].startsWith(`${name}: expected `)).toBe(true);
	return errs[0];
}

describe('TTS widget parameters', () => {
	it('only the key is required; everything else has its documented default', () => {
		expect(ok(`?key=${KEY}`)).toEqual({
			key: KEY,
			volume: 1,
			min_display: 4,
			gap: 0.5,
			claim: 'visible',
			audio_failures: 3,
			text_fallback: 'on',
			debug: false,
			sample: false,
			sample_amount: 5,
			sample_kind: 'tip',
			scale: 1,
			position: 'top',
			sound_volume: 0.8,
			tiers: 'default',
			alertTiers: { base: DEFAULT_LADDER.base, amount: DEFAULT_LADDER.amount }
		});
	});

	it('a missing key is named, with what it expects', () => {
		expect(errors('')).toEqual([
			'key: missing; expected the overlay key (16 to 128 characters of A-Z a-z 0-9 _ -)'
		]);
		expect(errors('?key=short')).toEqual([
			'key: expected the overlay key (16 to 128 characters of A-Z a-z 0-9 _ -), got "short"'
		]);
		expect(errors(`?key=${KEY}!`)).toHaveLength(1);
	});

	it('accepts every parameter set to a good value', () => {
		const value = ok(
			`?key=${KEY}&volume=0.25&min_display=6&gap=0&claim=active&audio_failures=5` +
				`&text_fallback=off&debug=1&sample=1&instance=scene-2&font=Comic%20Neue,%20sans-serif` +
				`&color=%23ffcc00&accent=teal&scale=1.5&position=bottom-right&sample_amount=150` +
				`&sample_kind=replay&look=frost&sound=chime&image=https://example.com/a.gif&celebrate=1` +
				`&sound_volume=0.5&tiers=off`
		);
		expect(value).toEqual({
			key: KEY,
			volume: 0.25,
			min_display: 6,
			gap: 0,
			claim: 'active',
			audio_failures: 5,
			text_fallback: 'off',
			debug: true,
			sample: true,
			instance: 'scene-2',
			font: '"Comic Neue", sans-serif',
			color: '#ffcc00',
			accent: 'teal',
			scale: 1.5,
			position: 'bottom-right',
			sample_amount: 150,
			sample_kind: 'replay',
			look: 'frost',
			sound: 'chime',
			image: 'https://example.com/a.gif',
			celebrate: true,
			sound_volume: 0.5,
			tiers: 'off',
			alertTiers: {
				base: {
					look: 'frost',
					sound: 'chime',
					image: 'https://example.com/a.gif',
					celebrate: true
				},
				amount: []
			}
		});
		expect(value).toMatchObject({
			font: '"Comic Neue", sans-serif',
			color: '#ffcc00',
			accent: 'teal',
			scale: 1.5,
			position: 'bottom-right'
		});
	});

	it.each([
		['volume', '1.5'],
		['volume', '-0.1'],
		['volume', 'loud'],
		['volume', '1e0'],
		['min_display', '61'],
		['gap', 'NaN'],
		['claim', 'sometimes'],
		['audio_failures', '0'],
		['audio_failures', '2.5'],
		['text_fallback', 'maybe'],
		['debug', '2'],
		['instance', 'two words'],
		['scale', '0.2'],
		['scale', 'Infinity'],
		['position', 'middle']
	])('%s=%s is refused with a message naming the parameter', (name, value) => {
		expect(errorFor(name, value)).toContain(`"${value}"`);
	});

	it('reports every bad parameter at once, in the order of the table', () => {
		expect(errors('?volume=2&position=middle&claim=nope').map((e) => e.split(':')[0])).toEqual([
			'key',
			'volume',
			'claim',
			'position'
		]);
	});

	it('words are case-insensitive and numbers may carry spaces', () => {
		const value = ok(`?key=${KEY}&claim=ALWAYS&position=Center&volume=%20.5%20&debug=true`);
		expect(value).toMatchObject({ claim: 'always', position: 'center', volume: 0.5, debug: true });
	});

	it('an empty value means the default; a repeated parameter uses its first value', () => {
		expect(ok(`?key=${KEY}&volume=&color=&scale=2&scale=3`)).toMatchObject({ volume: 1, scale: 2 });
		expect(ok(`?key=${KEY}&color=`).color).toBeUndefined();
	});

	it('unknown parameters (typos, cache busters) are ignored and listed', () => {
		const result = parseTtsParams(`?key=${KEY}&v=2&volumne=0.5`);
		expect(result).toMatchObject({ ok: true, ignored: ['v', 'volumne'] });
	});

	it('a long or control-character value is echoed short and flat', () => {
		const message = errorFor('position', 'x'.repeat(300) + '\n');
		expect(message).toContain(`"${'x'.repeat(39)}…"`);
		expect(message).not.toContain('\n');
	});
});

describe('colours', () => {
	it.each([
		['%23ff8800', '#ff8800'],
		['ff8800', '#ff8800'],
		['FFF', '#fff'],
		['%2300000080', '#00000080'],
		['RebeccaPurple', 'rebeccapurple'],
		['transparent', 'transparent']
	])('color=%s is accepted as %s', (raw, css) => {
		expect(ok(`?key=${KEY}&color=${raw}`).color).toBe(css);
	});

	it.each([
		'red;background:url(x)',
		'red; background: url(https://evil.example/x.png)',
		'url(x)',
		'rgb(1,2,3)',
		'var(--x)',
		'#ff888',
		'#gggggg',
		'blurple',
		'red !important',
		'expression(alert(1))',
		'"red"',
		'inherit',
		'currentColor'
	])('hostile or unsupported colour %j is refused', (value) => {
		errorFor('color', value);
		errorFor('accent', value);
	});
});

describe('fonts', () => {
	it.each([
		['Inter', '"Inter"'],
		['Comic Neue, sans-serif', '"Comic Neue", sans-serif'],
		['  Noto   Sans JP ,Serif', '"Noto Sans JP", serif'],
		['Source_Code-Pro, monospace', '"Source_Code-Pro", monospace'],
		['ヒラギノ角ゴ Pro', '"ヒラギノ角ゴ Pro"']
	])('font=%s becomes the font-family %s', (raw, css) => {
		expect(ok(`?key=${KEY}&font=${encodeURIComponent(raw)}`).font).toBe(css);
	});

	it.each([
		'Arial;}body{background:red',
		'Arial"; color: red',
		"Arial', x",
		'url(https://evil.example/f.woff)',
		'Arial\\;',
		'a,b,c,d,e,f',
		'x'.repeat(65),
		', ,',
		'Arial<script>'
	])('hostile or unsupported font %j is refused', (value) => {
		errorFor('font', value);
	});
});

describe('the parameter table for the README', () => {
	it('has one row per parameter with what it expects, its default and a description', () => {
		expect(TTS_PARAM_DOCS.map((d) => d.name)).toEqual(
			Object.keys({ ...ttsParamFields, ...baseTierFields })
		);
		for (const doc of TTS_PARAM_DOCS) {
			expect(doc.expects.length).toBeGreaterThan(3);
			expect(doc.description.length).toBeGreaterThan(10);
			expect(doc.description).not.toContain('\n');
		}
		const byName = Object.fromEntries(TTS_PARAM_DOCS.map((d) => [d.name, d.default]));
		expect(byName).toMatchObject({
			key: 'required',
			volume: '1',
			min_display: '4',
			gap: '0.5',
			claim: 'visible',
			audio_failures: '3',
			text_fallback: 'on',
			debug: '0',
			position: 'top'
		});
	});
});

describe('paramDocsMarkdown', () => {
	it('renders the README table, one row per parameter', () => {
		const lines = paramDocsMarkdown(TTS_PARAM_DOCS).split('\n');
		expect(lines[0]).toBe('| parameter | values | default | meaning |');
		expect(lines).toHaveLength(2 + TTS_PARAM_DOCS.length);
		expect(lines[4]).toBe(
			'| `min_display` | seconds from 0 to 60 | 4 | the alert stays on screen at least this long, even for short audio |'
		);
	});
});

describe('parseParams', () => {
	it('accepts URLSearchParams as well as a query string', () => {
		const fields = {
			level: param(numberIn(0, 10), { default: 5, expects: '0-10' })
		};
		expect(parseParams(fields, new URLSearchParams('level=7'))).toEqual({
			ok: true,
			value: { level: 7 },
			ignored: []
		});
		expect(parseParams(fields, 'level=7')).toMatchObject({ ok: true, value: { level: 7 } });
	});
});
