// The celebration widget's pure parts: which events fire it, its URL parameters, and the
// particles (bounded in number, all gone when the celebration ends).
import { describe, expect, it } from 'vitest';
import { parseCelebrationParams } from '../../widgets/celebration/params.ts';
import { withPlace } from '../../widgets/shared/place-params.ts';
import {
	MAX_PARTICLES,
	createParticles,
	particleCount,
	poseAt
} from '../../widgets/celebration/particles.ts';
import { targetsMe } from '../../widgets/celebration/targeting.ts';

const KEY = 'abcdefghijklmnop1234';

describe('celebration targeting', () => {
	const me = { overlay: 'o_1a2b3c4d', widget: 'w_main_party' };
	const t = (overlay_id: string | null, widget_id: string | null) => ({ overlay_id, widget_id });

	it('fires for every overlay, for this overlay, and for this widget', () => {
		expect(targetsMe(t(null, null), me)).toBe(true);
		expect(targetsMe(t('o_1a2b3c4d', null), me)).toBe(true);
		expect(targetsMe(t('o_1a2b3c4d', 'w_main_party'), me)).toBe(true);
		expect(targetsMe(t(null, 'w_main_party'), me)).toBe(true);
	});

	it('does nothing for another overlay or another widget', () => {
		expect(targetsMe(t('o_5e6f7a8b', null), me)).toBe(false);
		expect(targetsMe(t('o_1a2b3c4d', 'w_main_goal'), me)).toBe(false);
		expect(targetsMe(t('o_5e6f7a8b', 'w_chat_party'), me)).toBe(false);
		expect(targetsMe(t(null, 'w_chat_party'), me)).toBe(false);
	});

	it('a standalone widget (no overlay, no widget id) fires only for every overlay', () => {
		expect(targetsMe(t(null, null), {})).toBe(true);
		expect(targetsMe(t('o_1a2b3c4d', null), {})).toBe(false);
		expect(targetsMe(t(null, 'w_main_party'), {})).toBe(false);
	});

	it('a widget id without an overlay fires for its widget id and every overlay only', () => {
		const w = { widget: 'w_main_party' };
		expect(targetsMe(t(null, 'w_main_party'), w)).toBe(true);
		expect(targetsMe(t('o_1a2b3c4d', null), w)).toBe(false);
	});
});

describe('celebration parameters', () => {
	it('only the key is required: confetti, intensity 1, 4 seconds', () => {
		const r = parseCelebrationParams(`?key=${KEY}`);
		expect(r.ok && r.value).toEqual({
			key: KEY,
			style: 'confetti',
			intensity: 1,
			duration: 4,
			debug: false,
			sample: false
		});
	});

	it('takes an overlay, a widget, a style, an intensity and a duration', () => {
		const r = parseCelebrationParams(
			`?key=${KEY}&overlay=o_1a2b3c4d&widget=w_main_party&style=Fireworks&intensity=0.1&duration=15`
		);
		expect(r.ok && r.value).toMatchObject({
			overlay: 'o_1a2b3c4d',
			widget: 'w_main_party',
			style: 'fireworks',
			intensity: 0.1,
			duration: 15
		});
	});

	it("inside an overlay page the widget's place overrides the page's parameters", () => {
		const r = parseCelebrationParams(
			withPlace(
				`?key=${KEY}&style=fireworks&overlay=o_00000000&min_display=0`,
				'o_1a2b3c4d',
				'w_main_party'
			)
		);
		expect(r.ok && r.value).toMatchObject({
			overlay: 'o_1a2b3c4d',
			widget: 'w_main_party',
			style: 'fireworks'
		});
		expect(r.ok && r.ignored).toEqual(['min_display']);
	});

	it('names each bad parameter', () => {
		const r = parseCelebrationParams(
			`?key=${KEY}&overlay=o_XYZ&style=balloons&intensity=3.5&duration=0.5`
		);
		expect(r.ok).toBe(false);
		if (r.ok) return;
		expect(r.errors).toEqual([
			'overlay: expected an overlay id (o_ and 8 hex digits), got "o_XYZ"',
			'style: expected confetti or fireworks, got "balloons"',
			'intensity: expected a number from 0.1 to 3, got "3.5"',
			'duration: expected seconds from 1 to 15, got "0.5"'
		]);
	});
});

describe('celebration particles', () => {
	// A deterministic random source.
	function seeded(seed: number): () => number {
		let s = seed >>> 0;
		return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
	}

	it('the count scales with intensity and never exceeds the bound', () => {
		expect(particleCount('confetti', 1)).toBe(120);
		expect(particleCount('confetti', 0.1)).toBe(12);
		expect(particleCount('confetti', 3)).toBe(MAX_PARTICLES);
		expect(particleCount('confetti', 100)).toBe(MAX_PARTICLES);
		expect(particleCount('fireworks', 1)).toBe(4 * 36);
		expect(particleCount('fireworks', 0.1)).toBe(36);
		expect(particleCount('fireworks', 3)).toBeLessThanOrEqual(MAX_PARTICLES);
		for (const style of ['confetti', 'fireworks'] as const)
			for (const k of [0.1, 0.5, 1, 2, 3])
				expect(createParticles(style, k, 4, seeded(7))).toHaveLength(particleCount(style, k));
	});

	it('every particle is gone by the end of the duration', () => {
		for (const style of ['confetti', 'fireworks'] as const)
			for (const duration of [1, 4, 15]) {
				const particles = createParticles(style, 3, duration, seeded(duration));
				for (const p of particles) {
					expect(p.start + p.life).toBeLessThanOrEqual(duration + 1e-9);
					expect(poseAt(p, duration)).toBeNull();
				}
				// Something is on screen early on.
				expect(particles.some((p) => poseAt(p, Math.min(0.5, duration / 2)) !== null)).toBe(true);
			}
	});

	it('confetti rises from the bottom corners, then falls', () => {
		const [p] = createParticles('confetti', 1, 4, seeded(1));
		const early = poseAt(p, p.start + 0.3)!;
		expect(early.y).toBeLessThan(1);
		const late = poseAt(p, p.start + p.life * 0.9)!;
		const later = poseAt(p, p.start + p.life * 0.99)!;
		expect(later.y).toBeGreaterThan(late.y);
		expect(later.alpha).toBeLessThan(late.alpha);
	});
});
