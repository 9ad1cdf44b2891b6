// Property tests: random and hostile input never throws out of a parser. Every parser of what
// comes from outside — realtime frames, event envelopes and payloads, every upstream answer the
// route table describes, the route matcher, and the URL parameters of every widget — answers with
// a value or a clear error, never an exception, and never lets `__proto__` reach a prototype.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
	EVENT_TYPES,
	parseEvent,
	parseWith,
	ROUTES,
	matchRoute
} from '../../src/contract/index.ts';
import { parseServerFrame } from '../../src/contract/realtime.ts';
import { parseCelebrationParams } from '../../widgets/celebration/params.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { parseMediaParams } from '../../widgets/media/params.ts';
import { parseTipGoalParams } from '../../widgets/tip-goal/params.ts';
import { parseTtsParams } from '../../widgets/tts/params.ts';

const RUNS = { numRuns: 400 };

/** Strings people and attackers put where text goes: markup, bidi controls, zero-width, emoji. */
const hostileText = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.string({ unit: 'grapheme', maxLength: 40 }),
	fc.constantFrom(
		'<img src=x onerror=alert(1)>',
		'<script>alert(1)</script>',
		'"><svg onload=alert(1)>',
		'\u202Egnp.exe',
		'\u200B\u200C\u200D\uFEFF',
		'👩‍👩‍👧‍👦🏳️‍🌈',
		'\u0000\u0001\u001f',
		'%00%2e%2e%2f',
		'../../etc/passwd',
		'__proto__',
		'constructor',
		'toString',
		'x'.repeat(5000),
		'\ud800',
		'NaN',
		'Infinity',
		'-0',
		'1e309'
	)
);

/** JSON values with hostile strings and keys, including prototype keys. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		hostileText,
		fc.double(),
		fc.integer(),
		fc.boolean(),
		fc.constant(null),
		fc.array(tie('value'), { maxLength: 4 }),
		fc.dictionary(
			fc.oneof(
				hostileText,
				fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'type', 'data')
			),
			tie('value'),
			{ maxKeys: 5 }
		)
	)
})).value;

/** Frames shaped like events (the `evt_` id routes them to the event parser) with random parts. */
const eventLike = fc.record({
	id: fc.oneof(
		fc.constant('evt_abc'),
		fc.string().map((s) => `evt_${s}`)
	),
	type: fc.oneof(fc.constantFrom(...EVENT_TYPES), hostileText),
	created_at: fc.oneof(fc.constant('2026-11-23T10:00:00Z'), hostileText),
	data: hostileJson,
	actor: fc.oneof(fc.constant(null), hostileJson)
});

const controlLike = fc.record({
	type: fc.oneof(
		fc.constantFrom('ready', 'error', 'ping', 'constructor', '__proto__'),
		hostileText
	),
	data: hostileJson
});

afterEach(() => {
	// No parser may have written through `__proto__` onto Object.prototype.
	expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('realtime frames', () => {
	it('parseServerFrame never throws on any text, and a frame it accepts is of a known kind', () => {
		const text = fc.oneof(
			fc.string(),
			fc.json(),
			hostileJson.map((v) => JSON.stringify(v) ?? 'null'),
			eventLike.map((v) => JSON.stringify(v)),
			controlLike.map((v) => JSON.stringify(v)),
			fc.constantFrom(
				'{"__proto__":{"polluted":1},"type":"ping"}',
				'{"id":"evt_1","type":"tip.created","__proto__":{"polluted":1}}',
				'[]',
				'',
				'\u0000',
				'{"type":"ready"',
				'{"id":"evt_1","type":"tip.created","data":' + '['.repeat(3000) + ']'.repeat(3000) + '}'
			)
		);
		fc.assert(
			fc.property(text, (t) => {
				const r = parseServerFrame(t);
				if (r.ok) expect(['ready', 'error', 'ping', 'event', 'other']).toContain(r.value.kind);
				else expect(r.error.length).toBeGreaterThan(0);
			}),
			RUNS
		);
	});

	it('parseEvent never throws, and an accepted known event has a type of the catalog', () => {
		fc.assert(
			fc.property(fc.oneof(eventLike, hostileJson), (input) => {
				const r = parseEvent(input);
				if (!r.ok) expect(typeof r.error).toBe('string');
				else if (r.known) expect(EVENT_TYPES).toContain(r.event.type);
			}),
			RUNS
		);
	});

	it('an event accepted by parseServerFrame parses as an event too (one validation, one answer)', () => {
		fc.assert(
			fc.property(eventLike, (e) => {
				const framed = parseServerFrame(JSON.stringify(e));
				if (framed.ok && framed.value.kind === 'event')
					expect(() =>
						parseEvent(framed.value.kind === 'event' && framed.value.message)
					).not.toThrow();
			}),
			RUNS
		);
	});
});

describe('upstream answers', () => {
	const responses = Object.entries(ROUTES).map(([name, r]) => [name, r.response] as const);

	it('every response schema of the route table answers any JSON with a value or an error naming a field', () => {
		fc.assert(
			fc.property(fc.constantFrom(...responses), hostileJson, ([, schema], body) => {
				const r = parseWith(schema, body);
				if (!r.ok) expect(r.error).toMatch(/\S/);
			}),
			RUNS
		);
	});

	it('matchRoute never throws on hostile methods and paths, and never matches an id with a slash or dots', () => {
		const segment = fc.oneof(
			hostileText,
			fc.constantFrom('..', '.', '%2e%2e', '%2F', 'tts', 'media', 'queue', 'start', 'tip_1_ab')
		);
		const path = fc.array(segment, { maxLength: 5 }).map((s) => '/' + s.join('/'));
		fc.assert(
			fc.property(
				fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', ''),
				path,
				(m, p) => {
					const r = matchRoute(m, p);
					if (r)
						for (const v of Object.values(r.params)) {
							expect(v).not.toMatch(/[/\\]/);
							expect(v).not.toMatch(/^\.{1,2}$/);
						}
				}
			),
			RUNS
		);
	});
});

describe('URL parameters of every widget', () => {
	const parsers = {
		tts: parseTtsParams,
		media: parseMediaParams,
		counters: parseCountersParams,
		'tip-goal': parseTipGoalParams,
		celebration: parseCelebrationParams
	};
	const names = fc.constantFrom(
		'key',
		'volume',
		'claim',
		'min_display',
		'gap',
		'font',
		'color',
		'accent',
		'scale',
		'position',
		'overlay',
		'widget',
		'name',
		'label',
		'format',
		'style',
		'intensity',
		'duration',
		'debug',
		'instance',
		'size',
		'with_tts',
		'__proto__',
		'constructor'
	);
	const query = fc
		.array(fc.tuple(fc.oneof(names, hostileText), hostileText), { maxLength: 8 })
		.map((pairs) => {
			const p = new URLSearchParams();
			for (const [k, v] of pairs) p.append(k, v);
			return p.toString();
		});

	it('never throw on hostile query strings; a refusal names what is wrong', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...Object.values(parsers)),
				fc.oneof(query, fc.string()),
				(parse, q) => {
					const r = parse(q);
					if (!r.ok) {
						expect(r.errors.length).toBeGreaterThan(0);
						for (const e of r.errors) expect(e).toMatch(/\S/);
					}
				}
			),
			RUNS
		);
	});

	it('keep no markup or CSS breakout in a font or colour they accept', () => {
		const key = 'k'.repeat(20);
		const field = fc.constantFrom('font', 'color', 'accent');
		const check = (
			parse: (q: string) => ReturnType<typeof parseTtsParams>,
			name: string,
			v: string
		) => {
			const r = parse(new URLSearchParams({ key, overlay: 'o_1a2b3c4d', [name]: v }).toString());
			if (!r.ok) return false;
			const kept = (r.value as Record<string, unknown>)[name];
			if (typeof kept === 'string') expect(kept).not.toMatch(/[<>;{}\\]|\/\*/);
			return true;
		};
		// Not vacuous: ordinary values are accepted by every parser that has the field.
		expect(check(parseTtsParams, 'font', 'Comic Neue, sans-serif')).toBe(true);
		expect(check(parseTtsParams, 'color', 'ff8800')).toBe(true);
		fc.assert(
			fc.property(
				fc.constantFrom(...Object.values(parsers)),
				field,
				fc.oneof(hostileText, fc.constantFrom('red;}body{display:none', 'x/*', 'Arial</style>')),
				(parse, name, v) => {
					check(parse as typeof parseTtsParams, name, v);
				}
			),
			RUNS
		);
	});
});
