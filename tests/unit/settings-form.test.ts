// The settings editor's forms (widgets/settings/form-model.ts), built from the widgets' own field
// tables: every storable parameter of every target gets exactly one input of the right kind, with
// its bounds, words and default; the tiers' rows and their helpers; errors beside their fields.
import { describe, expect, it } from 'vitest';
import { SETTINGS_WIDGETS, type SettingsTarget } from '../../src/contract/index.ts';
import {
	BASE_TIER_NAMES,
	baseTierFormFields,
	errorsByField,
	isTierName,
	nextAmountTier,
	sameValues,
	targetForm,
	tierLabel,
	tierMode,
	tierRowFields,
	tierRowsIn,
	withLadder,
	withoutTier,
	type FormField
} from '../../widgets/settings/form-model.ts';
import { checkSettings, storedNames } from '../../widgets/settings/schemas.ts';
import { parseTtsParams } from '../../widgets/tts/params.ts';
import { DEFAULT_LADDER, TIER_PREFIXES } from '../../widgets/tts/tiers.ts';

const OVERLAY = 'o_1a2b3c4d' as SettingsTarget;
const TARGETS: SettingsTarget[] = [...SETTINGS_WIDGETS, OVERLAY];

const fieldsOf = (target: SettingsTarget): FormField[] =>
	targetForm(target).sections.flatMap((s) => s.fields);
const field = (target: SettingsTarget, name: string) =>
	fieldsOf(target).find((f) => f.name === name);

describe('a target form', () => {
	it.each(TARGETS)('%s: every stored name has one place (a section or the tiers panel)', (t) => {
		const form = targetForm(t);
		const inSections = fieldsOf(t).map((f) => f.name);
		expect(new Set(inSections).size).toBe(inSections.length);
		const inTiers = form.tiers
			? [...BASE_TIER_NAMES, ...TIER_PREFIXES.flatMap((p) => tierRowFields(p).map((f) => f.name))]
			: [];
		expect([...inSections, ...inTiers].sort()).toEqual(storedNames(t).sort());
		expect(form.sections[0].id).toBe(t === 'celebration' ? 'celebration' : 'look');
	});

	it('gives each kind of parameter its input, with its words, bounds and default', () => {
		expect(field('tts', 'color')).toMatchObject({ kind: 'colour', placeholder: 'white' });
		expect(field('tts', 'font')).toMatchObject({ kind: 'font', placeholder: 'system font' });
		expect(field('tts', 'position')).toMatchObject({ kind: 'choice', placeholder: 'top' });
		expect(field('tts', 'position')?.options).toContain('bottom-right');
		expect(field('tts', 'volume')).toMatchObject({ kind: 'number', min: 0, max: 1 });
		expect(field('tts', 'audio_failures')).toMatchObject({ min: 1, max: 10, step: 1 });
		expect(field('leaderboard', 'limit')).toMatchObject({ kind: 'number', max: 25, step: 1 });
		expect(field('media', 'info')).toMatchObject({ kind: 'choice', options: ['on', 'off'] });
		expect(field('counters', 'label')).toMatchObject({ kind: 'text' });
		expect(field('celebration', 'style')?.options).toContain('confetti');
		const base = Object.fromEntries(baseTierFormFields().map((f) => [f.name, f.kind]));
		expect(base).toMatchObject({ sound: 'sound', image: 'image', celebrate: 'switch' });
		expect(base.look).toBe('choice');
	});

	it("labels and hints come from the widget's table (the hint is what the checker says)", () => {
		const volume = field('media', 'volume')!;
		expect(volume.label).toBe('Video volume');
		expect(volume.expects).toBe('a number from 0 to 1');
		expect(field('tts', 'volume')!.label).toBe('Speech volume');
		for (const t of TARGETS) for (const f of fieldsOf(t)) expect(f.expects).not.toBe('');
	});

	it("an overlay's form has one section per widget, its videos' volume as media_volume", () => {
		const ids = targetForm(OVERLAY).sections.map((s) => s.id);
		expect(ids).toEqual(['look', 'tts', 'media', 'counters', 'celebration']);
		const media = targetForm(OVERLAY).sections.find((s) => s.id === 'media')!;
		expect(media.fields.map((f) => f.name)).toContain('media_volume');
		expect(media.fields.map((f) => f.name)).not.toContain('volume');
		expect(targetForm(OVERLAY).tiers).toBe(true);
		expect(targetForm('counters').tiers).toBe(false);
	});
});

describe('the tier rows', () => {
	it('an amount tier has its amount; sub rewards and replays have none', () => {
		expect(tierRowFields('tier2').map((f) => f.name)).toEqual([
			'tier2_from',
			'tier2_look',
			'tier2_sound',
			'tier2_image',
			'tier2_color',
			'tier2_accent',
			'tier2_scale',
			'tier2_min_display',
			'tier2_celebrate'
		]);
		expect(tierRowFields('sub').map((f) => f.name)).not.toContain('sub_from');
		expect(tierRowFields('tier1')[1]).toMatchObject({ label: 'Look', placeholder: 'as every tip' });
		expect(isTierName('replay_sound')).toBe(true);
		expect(isTierName('sound')).toBe(false);
	});

	it('rows are the tiers with a value; the next one is the first free amount tier', () => {
		const values = { tier2_from: '50', tier2_look: 'neon', sub_sound: 'coin', tier4_look: ' ' };
		expect(tierRowsIn(values)).toEqual(['tier2', 'sub']);
		expect(nextAmountTier(['tier1', 'tier2'])).toBe('tier3');
		expect(nextAmountTier(['tier1', 'tier2', 'tier3', 'tier4', 'tier5'])).toBeNull();
		expect(withoutTier(values, 'tier2')).toEqual({ sub_sound: 'coin', tier4_look: ' ' });
		expect(tierLabel('tier2', values)).toBe('From 50');
		expect(tierLabel('tier3', values)).toBe('From ?');
		expect(tierLabel('replay', values)).toBe('Replays');
	});

	it('says which tiers apply, as the widget decides', () => {
		expect(tierMode({})).toBe('built-in');
		expect(tierMode({ tiers: 'OFF' })).toBe('off');
		expect(tierMode({ tiers: 'off', tier1_from: '5' })).toBe('own');
		// Sub rewards alone do not replace the built-in amount tiers' place in the mode.
		expect(tierMode({ sub_look: 'gold' })).toBe('built-in');
	});

	it('writes the built-in tiers out as the widget reads them', () => {
		const values = withLadder({ color: 'ff0000', tiers: 'off' });
		expect(checkSettings('tts', values)).toEqual([]);
		const parsed = parseTtsParams(new URLSearchParams({ key: 'k'.repeat(16), ...values }));
		expect(parsed.ok && parsed.value.alertTiers).toEqual({
			base: DEFAULT_LADDER.base,
			amount: DEFAULT_LADDER.amount
		});
		expect(values.color).toBe('ff0000');
	});
});

describe('errors and changes', () => {
	it('puts each sentence beside the field it names, the rest in general', () => {
		const { byField, general } = errorsByField(
			[
				'color: expected a hex colour such as ff8800 or #ff8800, or a CSS colour name, got "x"',
				'tier2_look: tier2 needs tier2_from, the smallest amount it applies to',
				'at most 200 parameters in one target (201 given)',
				'nope: not a setting of the TTS widget'
			],
			new Set(storedNames('tts'))
		);
		expect(Object.keys(byField)).toEqual(['color', 'tier2_look']);
		expect(general).toHaveLength(2);
	});

	it('compares values as stored: trimmed, empty ones unset, in any order', () => {
		expect(sameValues({ a: ' 1', b: '' }, { a: '1' })).toBe(true);
		expect(sameValues({ a: '1', c: '2' }, { c: '2', a: '1' })).toBe(true);
		expect(sameValues({ a: '1' }, { a: '2' })).toBe(false);
		expect(sameValues({}, { a: '1' })).toBe(false);
	});
});
