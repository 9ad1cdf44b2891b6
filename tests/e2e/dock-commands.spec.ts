// The dock's Chat commands section in real Chromium engines (current, OBS 30's 103, OBS 31/32's
// 127) against the simulator: a command turned on is created upstream with its trigger and
// permission, a Save makes it again with the new ones, Off deletes it; a trigger the streamer's
// own command has is shown taken with a free name, which turns it on; a moderator's run is listed
// with who ran it; and the section at 300 px, nothing cut off, axe-core clean. Pressed and read
// through evaluate (dock.helpers.ts says why).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { LONG_NAME } from './content.ts';
import { atEverySize, openDock, outcome, press, settled } from './dock.helpers.ts';
import { expect, REACT_MS, test, textOf, type Stack } from './fixtures.ts';

const SECTION = '[data-testid=commands]';
const row = (key: string) => `${SECTION} li[data-command=${key}]`;
const toggle = (key: string) => `${row(key)} button[data-action=command-toggle]`;

/** The dock opened, and its Chat commands section opened and read. */
async function openCommands(page: Page, stack: Stack): Promise<void> {
	await openDock(page, stack);
	await press(page, `${SECTION} h2 button`);
	await expect
		.poll(() => page.locator(`${SECTION} li[data-command]`).count(), { timeout: REACT_MS })
		.toBe(10);
}

/** The simulator's custom commands: name, permission and response. */
const upstream = (stack: Stack) =>
	stack.sim.control
		.commands()
		.list()
		.map((c) => `${c.name} ${c.permission}${c.response.startsWith('Mine') ? ' (own)' : ''}`)
		.sort();

/** A field of a row set as typing does (input and change events). */
async function setField(page: Page, key: string, field: string, value: string): Promise<void> {
	await page.evaluate(
		([sel, value]) => {
			const el = document.querySelector<HTMLInputElement | HTMLSelectElement>(sel)!;
			el.value = value;
			el.dispatchEvent(new Event('input', { bubbles: true }));
			el.dispatchEvent(new Event('change', { bubbles: true }));
		},
		[`${row(key)} [data-field=${field}]`, value] as const
	);
}

test('a command turned on is created upstream, saved again with a new trigger, and off deletes it', async ({
	page,
	stack
}) => {
	await openCommands(page, stack);
	expect(await textOf(page, `${row('skip')} [data-testid=command-state]`)).toBe('off');
	await press(page, toggle('skip'));
	await expect
		.poll(() => outcome(page, 'command:skip'), { timeout: REACT_MS })
		.toBe('done: on: !skip answers in chat');
	expect(upstream(stack)).toEqual(['skip moderator']);
	expect(await textOf(page, `${row('skip')} [data-testid=command-state]`)).toBe('on: !skip');

	// Renamed and opened to everyone: Save makes it again upstream, the old name gone.
	await setField(page, 'skip', 'command-trigger', '!Next');
	await setField(page, 'skip', 'command-permission', 'everyone');
	await press(page, `${row('skip')} button[data-action=command-save]`);
	await expect
		.poll(() => outcome(page, 'command:skip'), { timeout: REACT_MS })
		.toBe('done: on: !next answers in chat');
	expect(upstream(stack)).toEqual(['next everyone']);

	await press(page, toggle('skip'));
	await expect
		.poll(() => outcome(page, 'command:skip'), { timeout: REACT_MS })
		.toBe('done: off: deleted from chat');
	expect(upstream(stack)).toEqual([]);
	// The row keeps the trigger for the next time it is turned on.
	expect(await textOf(page, `${row('skip')} [data-testid=command-state]`)).toBe('off');
	expect(
		await page.inputValue(`${row('skip')} [data-field=command-trigger]`, { timeout: REACT_MS })
	).toBe('next');
});

test('a trigger the streamer’s own command has is shown taken, and the free name offered turns it on', async ({
	page,
	stack
}) => {
	stack.sim.control.commands().create({ name: 'skip', response: 'Mine: skip this!' });
	await openCommands(page, stack);
	await press(page, toggle('skip'));
	await expect
		.poll(() => outcome(page, 'command:skip'), { timeout: REACT_MS })
		.toBe('refused: not turned on: !skip is taken');
	const taken = await textOf(page, `${row('skip')} [data-testid=command-taken]`);
	expect(taken).toContain('command_exists');
	expect(upstream(stack)).toEqual(['skip everyone (own)']);

	await press(page, `${row('skip')} button[data-action=command-use-free]`);
	await expect
		.poll(() => outcome(page, 'command:skip'), { timeout: REACT_MS })
		.toBe('done: on: !skip2 answers in chat');
	// The streamer's own !skip is as it was.
	expect(upstream(stack)).toEqual(['skip everyone (own)', 'skip2 moderator']);
	await expect(page.locator(`${row('skip')} [data-testid=command-taken]`)).toHaveCount(0);
});

test('a run from chat is listed live with who ran it and what came of it', async ({
	page,
	stack
}) => {
	await openCommands(page, stack);
	expect(await textOf(page, `${SECTION} [data-testid=runs-empty]`)).toBe('No command has run yet.');
	await press(page, toggle('approve'));
	await expect
		.poll(() => outcome(page, 'command:approve'), { timeout: REACT_MS })
		.toContain('done');
	const mod = { platform_user_id: 'u1', login: 'modmo', display_name: 'ModMo', role: 'moderator' };
	const heard = stack.sim.control.commands().hear('!approve', mod as never, 'twitch');
	expect(heard.ran).toBe(true);
	const run = `${SECTION} [data-testid=runs] li`;
	await expect.poll(() => page.locator(run).count(), { timeout: REACT_MS }).toBe(1);
	expect(await textOf(page, `${run} .name`)).toBe('ModMo');
	expect(await textOf(page, `${run} [data-testid=run-outcome]`)).toBe('refused: no name given');
});

test('the Chat commands section fits at 300 px, a taken trigger shown, and passes axe-core', async ({
	page,
	stack
}, info) => {
	stack.sim.control.commands().create({ name: 'pausevideo', response: 'Mine: a pause.' });
	await openCommands(page, stack);
	await press(page, toggle('pausevideo'));
	await expect.poll(() => outcome(page, 'command:pausevideo')).toContain('refused');
	await press(page, toggle('approve'));
	await expect.poll(() => outcome(page, 'command:approve')).toContain('done');
	const who = { platform_user_id: 'u2', login: 'x', display_name: LONG_NAME, role: 'moderator' };
	stack.sim.control.commands().hear(`!approve ${LONG_NAME}`, who as never, 'kick');
	await expect.poll(() => page.locator(`${SECTION} [data-testid=runs] li`).count()).toBe(1);
	await setField(page, 'skip', 'command-trigger', 'not a trigger!');
	expect(await textOf(page, `${row('skip')} [data-testid=trigger-problem]`)).toContain('a-z');
	expect(await atEverySize(page, 'commands')).toEqual([]);

	await page.setViewportSize({ width: 300, height: 600 });
	await page.evaluate((s) => document.querySelector(s)!.scrollIntoView(), SECTION);
	await settled(page);
	if (info.project.name === 'chromium') {
		const path = info.outputPath('commands-300x600.png');
		await page.locator(SECTION).screenshot({ path, animations: 'disabled' });
		await info.attach('commands-300x600.png', { path, contentType: 'image/png' });
	}
	const results = await new AxeBuilder({ page }).include(SECTION).analyze();
	expect(results.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
	expect(results.passes.length).toBeGreaterThan(5);
});
