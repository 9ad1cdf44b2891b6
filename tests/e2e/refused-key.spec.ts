// A page whose key was refused (src/pages/refused-key.ts): it shows its card and stops; about a
// minute later it checks the key once with GET /settings, and when that is answered 2xx (here the
// test puts the right key on the check, as a streamer putting the old key back would) it reloads.
// The page's clock is Playwright's, so the minute passes at once.
import { expect, test, textOf } from './fixtures.ts';

const WRONG = 'wrong_key_but_well_formed';

test('a refused widget page knocks once a minute at most, and reloads when its key works again', async ({
	page,
	stack
}) => {
	await page.clock.install();
	await page.goto(`${stack.origin}/widget/counters?key=${WRONG}`);
	await expect
		.poll(() => textOf(page, '[data-testid=error-card]'), { timeout: 20_000 })
		.toContain('The overlay key was refused');
	// Whatever the start sent has been answered: from now on, only the check may go out.
	await page.waitForLoadState('networkidle');
	const sent: string[] = [];
	page.on('request', (r) => sent.push(`${r.method()} ${new URL(r.url()).pathname}`));

	await page.clock.runFor(40_000);
	expect(sent).toEqual([]);

	// The streamer puts the old key back: the check is answered 200.
	await page.route('**/settings', (route) =>
		route.continue({ headers: { ...route.request().headers(), 'x-overlay-key': stack.key } })
	);
	// A jump, not a run: the check's own 10 s timeout must not fire before its real answer.
	await page.clock.fastForward(21_000);
	// The check, then the page again (the reload).
	await expect
		.poll(() => sent.slice(0, 2), { timeout: 10_000 })
		.toEqual(['GET /settings', 'GET /widget/counters']);
});

test('a refused overlay page says it checks again later', async ({ page, stack }) => {
	await page.goto(`${stack.origin}/overlay/o_0123abcd?key=${WRONG}`);
	await expect
		.poll(() => textOf(page, '[data-testid=error-card]'), { timeout: 20_000 })
		.toContain('checks the key again every few minutes');
});
