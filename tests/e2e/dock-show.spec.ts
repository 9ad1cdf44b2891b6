// The show from the dock in real Chromium engines (current, OBS 30's 103, OBS 31/32's 127) against
// the simulator: a counter changed, a tip goal saved or started again, a celebration fired, each
// reaching the widget an OBS source shows. The dock is pressed and typed into through evaluate (in
// Chromium 103 Playwright's click() and fill() fail on the missing checkVisibility).
import type { Page } from '@playwright/test';
import { atEverySize, openDock, outcome, press, settled } from './dock.helpers.ts';
import { attrOf, expect, REACT_MS, test, textOf, type Stack } from './fixtures.ts';

const MAIN = 'o_1a2b3c4d'; // the demo overlay with a goal, a counters and a celebration widget
const counterRow = (name: string) => `[data-testid=counter][data-name="${name}"]`;

/** Types into an input as a user does: its value, then the input event Svelte listens to. */
async function type(page: Page, selector: string, value: string): Promise<void> {
	await page.evaluate(
		([sel, v]) => {
			const input = document.querySelector<HTMLInputElement>(sel)!;
			input.value = v;
			input.dispatchEvent(new Event('input', { bubbles: true }));
		},
		[selector, value] as const
	);
}

/** The dock, its counters read, beside a widget page (`path`, with its parameters). */
async function dockBeside(page: Page, stack: Stack, path: string, params = {}): Promise<Page> {
	const widget = await page.context().newPage();
	await widget.goto(stack.url(path, params));
	await expect
		.poll(() => attrOf(widget, '[data-status]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	await openDock(page, stack);
	await expect
		.poll(() => page.evaluate(() => document.querySelectorAll('[data-testid=counter]').length), {
			timeout: REACT_MS
		})
		.toBeGreaterThan(0);
	return widget;
}

const shownCounter = (widget: Page, name: string) =>
	attrOf(widget, `[data-counter="${name}"]`, 'data-value');

test('+1, -1, Set and Reset in the dock show on the counters widget at once', async ({
	page,
	stack
}) => {
	const widget = await dockBeside(page, stack, '/widget/counters');
	expect(await shownCounter(widget, 'deaths')).toBe('3');
	await press(page, `${counterRow('deaths')} button[data-action=counter-up]`);
	await expect.poll(() => shownCounter(widget, 'deaths'), { timeout: REACT_MS }).toBe('4');
	await expect.poll(() => outcome(page, 'counter-deaths')).toBe('done: deaths: 4');
	await press(page, `${counterRow('deaths')} button[data-action=counter-down]`);
	await expect.poll(() => shownCounter(widget, 'deaths'), { timeout: REACT_MS }).toBe('3');
	await type(page, `${counterRow('deaths')} [data-testid=counter-input]`, '40');
	await press(page, `${counterRow('deaths')} button[data-action=counter-set]`);
	await expect.poll(() => shownCounter(widget, 'deaths'), { timeout: REACT_MS }).toBe('40');
	await press(page, `${counterRow('deaths')} button[data-action=counter-reset]`);
	await expect.poll(() => shownCounter(widget, 'deaths'), { timeout: REACT_MS }).toBe('0');
	expect(await textOf(page, `${counterRow('deaths')} [data-testid=counter-value]`)).toBe('0');
	expect(stack.sim.control.model.counter('deaths').value).toBe(0);
});

test('a counter made in the dock appears, a bad name is refused by its field, Delete asks first', async ({
	page,
	stack
}) => {
	const widget = await dockBeside(page, stack, '/widget/counters');
	const before = stack.calls('POST', /^\/counters$/).length;
	await type(page, '[data-testid=counter-new-name]', 'Boss Fights');
	await expect
		.poll(() => textOf(page, '[data-testid=counter-new] [data-testid=field-problem]'))
		.toMatch(/^Name: use 1 to 64 of a-z/);
	expect(
		await page.evaluate(
			() =>
				document.querySelector<HTMLButtonElement>('button[data-action=counter-create]')!.disabled
		)
	).toBe(true);
	await type(page, '[data-testid=counter-new-name]', 'boss-fights');
	await type(page, '[data-testid=counter-new-value]', '2');
	await press(page, 'button[data-action=counter-create]');
	await expect.poll(() => shownCounter(widget, 'boss-fights'), { timeout: REACT_MS }).toBe('2');
	expect(stack.calls('POST', /^\/counters$/).length).toBe(before + 1);
	// A name taken: the upstream's refusal beside the name.
	await type(page, '[data-testid=counter-new-name]', 'deaths');
	await press(page, 'button[data-action=counter-create]');
	await expect
		.poll(() => attrOf(page, '[data-testid=counter-new] [data-testid=field-problem]', 'data-field'))
		.toBe('name');

	await press(page, `${counterRow('boss-fights')} button[data-action=counter-delete]`);
	expect(stack.sim.control.model.counter('boss-fights')).toBeTruthy();
	await press(page, `${counterRow('boss-fights')} button[data-action=counter-delete-confirm]`);
	await expect.poll(() => shownCounter(widget, 'boss-fights'), { timeout: REACT_MS }).toBeNull();
	expect(
		await page.evaluate((s) => document.querySelector(s), counterRow('boss-fights'))
	).toBeNull();
});

test('Create and Set are off for a value that is not a whole number, the reason beside them at every size', async ({
	page,
	stack
}) => {
	await dockBeside(page, stack, '/widget/counters');
	const before = stack.calls('POST', /^\/counters$/).length;
	const disabled = (action: string) =>
		page.evaluate(
			(s) => document.querySelector<HTMLButtonElement>(s)!.disabled,
			`button[data-action=${action}]`
		);
	const problem = (form: string) =>
		textOf(page, `${form} [data-testid=field-problem][data-field=value]`);
	await type(page, '[data-testid=counter-new-name]', 'boss-fights');
	await type(page, '[data-testid=counter-new-value]', 'abc');
	await expect
		.poll(() => problem('[data-testid=counter-new]'))
		.toBe('Start at: a whole number from −1,000,000,000 to 1,000,000,000');
	expect(await disabled('counter-create')).toBe(true);
	await type(page, `${counterRow('deaths')} [data-testid=counter-input]`, '2.5');
	await expect
		.poll(() => problem(counterRow('deaths')))
		.toBe('Value: a whole number from −1,000,000,000 to 1,000,000,000');
	expect(await disabled('counter-set')).toBe(true);
	// Enter in the box sends nothing either: the reason stays, nothing reached the upstream.
	await page.evaluate(() =>
		document.querySelector<HTMLFormElement>('[data-testid=counter-new]')!.requestSubmit()
	);
	expect(await atEverySize(page, 'dock with counter values refused')).toEqual([]);
	expect(stack.calls('POST', /^\/counters$/).length).toBe(before);
	await type(page, '[data-testid=counter-new-value]', '-4');
	await expect.poll(() => disabled('counter-create')).toBe(false);
	expect(await problem('[data-testid=counter-new]')).toBe('');
});

test('a goal saved in the dock, and a new one started from now, show on the goal widget', async ({
	page,
	stack
}) => {
	const widget = await dockBeside(page, stack, '/widget/tip-goal', { overlay: MAIN });
	const goal = `[data-testid=goal][data-overlay=${MAIN}]`;
	await press(page, `${goal} [data-testid=goal-toggle]`);
	await type(page, `${goal} [data-testid=goal-title]`, 'New chair');
	await type(page, `${goal} [data-testid=goal-amount]`, '400');
	await press(page, `${goal} button[data-action=goal-save]`);
	await expect
		.poll(() => outcome(page, `goal-${MAIN}`))
		.toBe('done: saved: the goal widgets show it');
	// The upstream reloads the overlay's sources on a goal change: the widget comes back with it.
	await expect
		.poll(() => textOf(widget, '[data-testid=tip-goal]'), { timeout: 10_000 })
		.toContain('New chair');
	expect(stack.sim.control.model.tipGoal(MAIN)).toMatchObject({ title: 'New chair', amount: 400 });

	stack.sim.control.model.addToTipGoal(MAIN, 120);
	await press(page, `${goal} button[data-action=goal-new]`);
	await expect.poll(() => outcome(page, `goal-${MAIN}`)).toMatch(/^done/);
	const goalNow = stack.sim.control.model.tipGoal(MAIN);
	expect(goalNow.ends_at).toBeNull();
	expect(Date.now() - Date.parse(goalNow.starts_at!)).toBeLessThan(60_000);
});

test('Celebrate in the dock fires the celebration widget', async ({ page, stack }) => {
	const widget = await dockBeside(page, stack, '/widget/celebration', {
		overlay: MAIN,
		widget: 'w_main_party',
		duration: 1
	});
	const fired = () => attrOf(widget, '[data-testid=celebration-widget]', 'data-fired');
	await press(page, 'button[data-action=celebrate]');
	await expect.poll(fired, { timeout: REACT_MS }).toBe('1');
	await expect.poll(() => outcome(page, 'celebrate')).toBe('done: celebrating on every overlay');
	await page.evaluate((v) => {
		const select = document.querySelector<HTMLSelectElement>('[data-testid=celebrate-where]')!;
		select.value = v;
		select.dispatchEvent(new Event('change', { bubbles: true }));
	}, MAIN);
	await press(page, 'button[data-action=celebrate]');
	await expect.poll(fired, { timeout: REACT_MS }).toBe('2');
	await expect.poll(() => outcome(page, 'celebrate')).toBe('done: celebrating on one overlay');
});

/** The dock with every goal's form open. */
async function everythingOpen(page: Page, stack: Stack): Promise<void> {
	await openDock(page, stack);
	await expect
		.poll(() => page.evaluate(() => document.querySelectorAll('[data-testid=goal]').length))
		.toBeGreaterThan(0);
	await page.evaluate(() =>
		document
			.querySelectorAll<HTMLButtonElement>('[data-testid=goal-toggle]')
			.forEach((b) => b.click())
	);
}

test('the dock with its show sections open fits every size', async ({ page, stack }) => {
	await everythingOpen(page, stack);
	expect(await atEverySize(page, 'dock with the show open')).toEqual([]);
});

test('screenshots of the show sections at 300 and 500 px, to look at', async ({
	page,
	stack
}, info) => {
	test.skip(info.project.name !== 'chromium', 'looked at in current Chromium');
	await everythingOpen(page, stack);
	for (const width of [300, 500]) {
		await page.setViewportSize({ width, height: 900 });
		await settled(page);
		await page.evaluate(() => document.querySelector('[data-testid=counters]')!.scrollIntoView());
		const name = `dock-show-${width}x900.png`;
		const path = info.outputPath(name);
		await page.screenshot({ path, animations: 'disabled' });
		await info.attach(name, { path, contentType: 'image/png' });
	}
});
