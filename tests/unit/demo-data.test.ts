import { describe, expect, it } from 'vitest';
import {
	amountWeights,
	counterNames,
	createRng,
	donorNames,
	randomTipInput,
	tipMessages,
	videoRequestTitles
} from '../../src/sim/demo-data.ts';

const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;
const EMOJI = /\p{Extended_Pictographic}/u;

const tips = (seed: number, count: number) => {
	const rng = createRng(seed);
	return Array.from({ length: count }, () => randomTipInput(rng));
};

describe('createRng', () => {
	it('the same seed gives the same sequence', () => {
		const a = createRng(42);
		const b = createRng(42);
		const draws = (rng: ReturnType<typeof createRng>) =>
			Array.from({ length: 20 }, () => rng.next());
		expect(draws(a)).toEqual(draws(b));
	});

	it('different seeds give different sequences', () => {
		expect(createRng(1).next()).not.toBe(createRng(2).next());
	});

	it('next stays in [0, 1) and int reaches both inclusive ends', () => {
		const rng = createRng(7);
		const seen = new Set<number>();
		for (let i = 0; i < 2_000; i++) {
			const x = rng.next();
			expect(x).toBeGreaterThanOrEqual(0);
			expect(x).toBeLessThan(1);
			seen.add(rng.int(1, 6));
		}
		expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
	});

	it('chance follows its probability roughly', () => {
		const rng = createRng(9);
		const hits = Array.from({ length: 5_000 }, () => rng.chance(0.2)).filter(Boolean).length;
		expect(hits).toBeGreaterThan(800);
		expect(hits).toBeLessThan(1_200);
	});

	it('picking from an empty list throws instead of returning undefined', () => {
		expect(() => createRng(1).pick([])).toThrow();
	});
});

describe('randomTipInput', () => {
	it('is deterministic for a seed', () => {
		expect(tips(123, 50)).toEqual(tips(123, 50));
		expect(tips(123, 50)).not.toEqual(tips(124, 50));
	});

	it('a few hundred tips mix paid, unpaid and sub-reward tips from every source', () => {
		const sample = tips(2024, 400);
		expect(sample.filter((t) => t.paid).length).toBeGreaterThan(150);
		expect(sample.filter((t) => !t.paid && !t.is_sub_reward).length).toBeGreaterThan(20);
		expect(sample.filter((t) => t.is_sub_reward).length).toBeGreaterThan(20);
		expect(new Set(sample.map((t) => t.source))).toEqual(
			new Set(['stripe', 'paypal', 'manual', 'api', 'sub_reward'])
		);
		expect(new Set(sample.map((t) => t.platform))).toEqual(new Set(['twitch', 'kick', null]));
	});

	it('sub rewards have no amount, are unpaid and come from a signed-in account', () => {
		for (const tip of tips(5, 400).filter((t) => t.is_sub_reward)) {
			expect(tip).toMatchObject({ amount: null, paid: false, source: 'sub_reward' });
			expect(tip.platform).not.toBeNull();
			expect(tip.platform_user_id).toMatch(/^\d+$/);
		}
	});

	it('paid and manual tips carry an amount from the realistic set', () => {
		const allowed = amountWeights.map(([amount]) => amount);
		const amounts = tips(8, 600)
			.filter((t) => !t.is_sub_reward)
			.map((t) => t.amount);
		for (const amount of amounts) expect(allowed).toContain(amount);
		const fives = amounts.filter((a) => a === 5).length;
		const hundreds = amounts.filter((a) => a === 100).length;
		expect(fives).toBeGreaterThan(hundreds * 3);
	});

	it('manual tips are unpaid and unattributed; paid card tips are paid', () => {
		for (const tip of tips(11, 400)) {
			if (tip.source === 'manual') expect(tip).toMatchObject({ paid: false, platform: null });
			if (tip.source === 'stripe' || tip.source === 'paypal') expect(tip.paid).toBe(true);
			if (tip.platform === null) expect(tip.platform_user_id).toBeNull();
			if (tip.source !== 'api') expect(tip.external_source).toBeNull();
		}
	});

	it('one donor on one platform keeps the same platform user id', () => {
		const ids = new Map<string, string | null>();
		for (const tip of tips(3, 500).filter((t) => t.platform)) {
			const key = `${tip.platform}:${tip.name}`;
			if (ids.has(key)) expect(tip.platform_user_id).toBe(ids.get(key));
			ids.set(key, tip.platform_user_id);
		}
	});

	it('traffic includes right-to-left text, emoji, CJK and empty messages', () => {
		const sample = tips(77, 400);
		const text = sample.flatMap((t) => [t.name, t.message ?? '']);
		expect(text.some((s) => RTL.test(s))).toBe(true);
		expect(text.some((s) => EMOJI.test(s))).toBe(true);
		expect(text.some((s) => /\p{Script=Han}|\p{Script=Hiragana}/u.test(s))).toBe(true);
		expect(sample.some((t) => t.message === null)).toBe(true);
		expect(sample.some((t) => t.message === '')).toBe(true);
	});
});

describe('demo material', () => {
	it('names run from one character to well past 25, in several scripts', () => {
		const lengths = donorNames.map((n) => [...n].length);
		expect(Math.min(...lengths)).toBe(1);
		expect(Math.max(...lengths)).toBeGreaterThan(25);
		expect(donorNames.some((n) => RTL.test(n))).toBe(true);
		expect(donorNames.some((n) => EMOJI.test(n))).toBe(true);
		expect(donorNames.some((n) => /[À-ž]/u.test(n))).toBe(true);
	});

	it('messages include an emoji-only one and a long one of about 400 characters', () => {
		const strings = tipMessages.filter((m): m is string => typeof m === 'string');
		expect(strings.some((m) => m !== '' && !/[\p{L}\p{N}]/u.test(m))).toBe(true);
		const longest = Math.max(...strings.map((m) => m.length));
		expect(longest).toBeGreaterThanOrEqual(350);
		expect(longest).toBeLessThanOrEqual(500);
	});

	it('counter names are plain lowercase slugs a chat command can use', () => {
		expect(counterNames).toContain('deaths');
		for (const name of counterNames) expect(name).toMatch(/^[a-z]+$/);
	});

	it('video request titles are non-empty and distinct', () => {
		expect(new Set(videoRequestTitles).size).toBe(videoRequestTitles.length);
		for (const title of videoRequestTitles) expect(title.trim()).not.toBe('');
	});
});
