// The TTS widget's audio port in real engines when the audio itself is broken: a tip whose audio
// is missing (404) or is not audio at all is never finished by a failed attempt (a claimed attempt
// is released), is shown as text after `audio_failures` attempts and then finished once, and the
// queue goes on.
import { attrOf, eventually, expect, test } from './fixtures.ts';

for (const mode of ['missing', 'corrupt'] as const) {
	test(`audio that is ${mode} is released, then shown as text and finished; the next tip plays`, async ({
		page,
		stack
	}) => {
		await page.goto(stack.url('/widget/tts', { min_display: 0, gap: 0, audio_failures: 2 }));
		await expect
			.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
			.toBe('ready');
		const broken = stack.sim.control.createTip({ name: 'Broken', amount: 1, message: 'No sound.' });
		// This tip's audio, before it is ready (tips may become ready in any order).
		stack.sim.control.breakAudio(broken.order_id, mode);
		const next = stack.sim.control.createTip({ name: 'Fine', amount: 1, message: 'Sound.' });
		const ok = (e: { status: number }) => e.status === 200;
		const calls = (id: string, what: string) =>
			stack.calls('POST', new RegExp(`^/tts/${id}/${what}$`)).filter(ok);
		// Shown as text (no audio) before it is finished.
		await expect
			.poll(() => attrOf(page, '[data-testid=tts-alert]', 'data-text-only'), { timeout: 30_000 })
			.toBe('true');
		await eventually(() => calls(broken.order_id, 'finish').length === 1, 60_000);
		await eventually(() => calls(next.order_id, 'finish').length === 1, 60_000);
		// Every claim of a failed attempt was given back (an attempt whose audio already failed while
		// preloading may not claim at all); the text fallback's claim is the one finished.
		const starts = calls(broken.order_id, 'start').length;
		expect(starts).toBeGreaterThanOrEqual(1);
		expect(calls(broken.order_id, 'release')).toHaveLength(starts - 1);
		expect(calls(broken.order_id, 'finish')).toHaveLength(1);
		expect(calls(next.order_id, 'start')).toHaveLength(1);
	});
}
