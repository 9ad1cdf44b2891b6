// A TTS page in a browser that blocks autoplay (a normal tab, not OBS): it asks for a click, claims
// nothing meanwhile, and reads the waiting tip once clicked. The page learns the lock from howler's
// AudioContext and is unlocked by howler's gesture listener (src/client/audio.ts). The other specs
// run with autoplay allowed, as in OBS; this one launches its own browser without that flag.
import { chromiumArgs } from './engines.ts';
import { attrOf, eventually, expect, test } from './fixtures.ts';

test('a page that may not autoplay asks for a click, claims nothing until then, then reads the tip', async ({
	playwright,
	stack
}, testInfo) => {
	const launch = testInfo.project.use.launchOptions ?? {};
	const browser = await playwright.chromium.launch({
		...launch,
		args: chromiumArgs.filter((a) => !a.startsWith('--autoplay-policy'))
	});
	try {
		const page = await browser.newPage();
		await page.goto(stack.url('/widget/tts', { min_display: 0, gap: 0 }));
		await expect
			.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
			.toBe('needs-audio-unlock');
		const tip = stack.sim.control.createTip({ name: 'Ann', amount: 1, message: 'Hello there.' });
		const calls = (what: string) =>
			stack
				.calls('POST', new RegExp(`^/tts/${tip.order_id}/${what}$`))
				.filter((e) => e.status === 200);
		// The tip's audio is ready and the page heard of it, yet nothing is claimed while locked.
		await eventually(() => stack.sim.control.model.findTip(tip.order_id)?.tts_url != null, 20_000);
		await page.waitForTimeout(1_000);
		expect(calls('start')).toHaveLength(0);
		await page.getByTestId('unlock-audio').click({ force: true });
		await expect
			.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
			.toBe('ready');
		await eventually(() => calls('finish').length === 1, 30_000);
		expect(calls('start')).toHaveLength(1);
	} finally {
		await browser.close();
	}
});
