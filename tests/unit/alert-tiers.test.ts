// Alert tiers: which tier a tip gets, what a tier inherits from the base, the built-in
// ladder, and the errors a streamer sees for a tier URL that cannot work.
import { describe, expect, it } from 'vitest';
import { parseTtsParams, type TtsParams } from '../../widgets/tts/params.ts';
import { alertStyle, pickTier } from '../../widgets/tts/tiers.ts';

const KEY = 'abcdefghijklmnop1234';

function params(query: string): TtsParams {
	const r = parseTtsParams(`?key=${KEY}&${query}`);
	if (!r.ok) throw new Error(r.errors.join('; '));
	return r.value;
}

const tip = (amount: number | null, kind: 'tip' | 'sub' | 'replay' = 'tip') => ({
	amount,
	is_sub_reward: kind === 'sub',
	is_replay: kind === 'replay'
});

describe('the built-in ladder (no tier parameters)', () => {
	const p = params('');
	const style = (amount: number) => alertStyle(p.alertTiers, tip(amount), p.min_display);

	it('gives tips of 5, 25 and 150 three looks and three sounds; the 150 one celebrates', () => {
		expect(style(5)).toMatchObject({ tier: 'base', look: 'classic', sound: '/sounds/pop.wav' });
		expect(style(25)).toMatchObject({ tier: 'tier1', look: 'gold', sound: '/sounds/coin.wav' });
		expect(style(150)).toMatchObject({
			tier: 'tier3',
			look: 'ember',
			sound: '/sounds/fanfare.wav',
			celebrate: true,
			minDisplayS: 8
		});
		expect(style(5).celebrate).toBe(false);
		expect(style(25).celebrate).toBe(false);
	});

	it('starts a tier at exactly its amount', () => {
		expect(style(9.99).tier).toBe('base');
		expect(style(10).tier).toBe('tier1');
		expect(style(50).tier).toBe('tier2');
		expect(style(100).tier).toBe('tier3');
	});

	it("lets the base parameters change the ladder's base (sound=none: silent small tips)", () => {
		const q = params('sound=none&look=frost');
		expect(alertStyle(q.alertTiers, tip(5), 4)).toMatchObject({ look: 'frost', sound: null });
		expect(alertStyle(q.alertTiers, tip(25), 4)).toMatchObject({
			look: 'gold',
			sound: '/sounds/coin.wav'
		});
	});

	it('is off with tiers=off: one look and no sound for every tip', () => {
		const q = params('tiers=off');
		for (const amount of [1, 25, 500])
			expect(alertStyle(q.alertTiers, tip(amount), 4)).toEqual({
				tier: 'base',
				look: 'classic',
				sound: null,
				image: null,
				minDisplayS: 4,
				celebrate: false
			});
	});
});

describe("a streamer's own tiers", () => {
	const p = params(
		'sound=pop&min_display=3&tier2_from=100&tier2_look=ember&tier2_sound=https://cdn.example/horn.mp3' +
			'&tier2_celebrate=1&tier2_min_display=10&tier1_from=20&tier1_accent=teal&tier1_scale=1.3' +
			'&sub_look=neon&sub_sound=none&replay_image=https://cdn.example/r.gif'
	);

	it('replace the built-in ladder and are sorted by amount whatever their numbers', () => {
		expect(p.alertTiers.amount.map((t) => [t.name, t.from])).toEqual([
			['tier1', 20],
			['tier2', 100]
		]);
		expect(pickTier(p.alertTiers, tip(50)).name).toBe('tier1');
		expect(pickTier(p.alertTiers, tip(19)).name).toBe('base');
	});

	it('take what they leave unset from the base', () => {
		expect(alertStyle(p.alertTiers, tip(30), p.min_display)).toEqual({
			tier: 'tier1',
			look: 'classic',
			accent: 'teal',
			scale: 1.3,
			sound: '/sounds/pop.wav',
			image: null,
			minDisplayS: 3,
			celebrate: false
		});
		expect(alertStyle(p.alertTiers, tip(250), p.min_display)).toMatchObject({
			look: 'ember',
			sound: 'https://cdn.example/horn.mp3',
			celebrate: true,
			minDisplayS: 10
		});
	});

	it('give sub rewards and replays their own tier when set, whatever the amount', () => {
		expect(alertStyle(p.alertTiers, tip(null, 'sub'), 3)).toMatchObject({
			tier: 'sub',
			look: 'neon',
			sound: null
		});
		expect(alertStyle(p.alertTiers, tip(500, 'replay'), 3)).toMatchObject({
			tier: 'replay',
			image: 'https://cdn.example/r.gif',
			sound: '/sounds/pop.wav'
		});
		// Without a sub_ tier a sub reward goes by its amount.
		const q = params('tier1_from=10&tier1_look=gold');
		expect(pickTier(q.alertTiers, tip(15, 'sub')).name).toBe('tier1');
	});
});

describe('tier parameters that cannot work', () => {
	const errors = (query: string) => {
		const r = parseTtsParams(`?key=${KEY}&${query}`);
		if (r.ok) throw new Error(`accepted ${query}`);
		return r.errors;
	};

	it('a tier without its _from is named, with what it needs', () => {
		expect(errors('tier3_look=gold')).toEqual([
			'tier3_look: tier3 needs tier3_from, the smallest amount it applies to'
		]);
	});

	it('two tiers from the same amount are refused', () => {
		expect(errors('tier1_from=10&tier2_from=10')).toEqual([
			'tier2_from: tier1 already starts at 10; give each tier its own amount'
		]);
	});

	it.each([
		['tier1_look', 'sparkly'],
		['sound', 'javascript:alert(1)'],
		['sound', 'boom'],
		['image', 'file:///etc/passwd'],
		['tier1_from', '-5'],
		['sub_celebrate', 'maybe'],
		['replay_accent', 'url(x)']
	])('%s=%s gets one sentence naming it', (name, value) => {
		const errs = errors(`${name}=${encodeURIComponent(value)}`);
		expect(errs).toHaveLength(1);
		expect(errs[0].startsWith(`${name}: expected `)).toBe(true);
	});
});
