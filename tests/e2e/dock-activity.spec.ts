// The dock's Activity in real Chromium engines (current, OBS 30's 103, OBS 31/32's 127), on the
// token endpoint's own record of the stream: tips that came while no page was open listed once
// with their outcomes, a new tip shown live (no polling), the kind filter and the name search, a
// removed tip's message shown only after Show, Replay of an old tip played once by a TTS widget,
// Export CSV of a range as a download, Delete history, and the section at 300 px (nothing cut off,
// axe-core clean). Pressed and read through evaluate (dock.helpers.ts says why).
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import {
	ACT,
	ACTIVITY,
	activityRows,
	activityShown,
	localNow,
	recorded,
	recordedTips,
	setField,
	tipsWhileClosed
} from './activity.helpers.ts';
import { LONG_MESSAGE_UNBROKEN, LONG_NAME, queueVideo } from './content.ts';
import {
	atEverySize,
	cards,
	controlAction,
	fast,
	openDock,
	outcome,
	press,
	replayedOnce,
	settled,
	ttsFinishesOf,
	ttsReady,
	ttsStartsOf,
	watchPlayback
} from './dock.helpers.ts';
import {
	countFrames,
	eventually,
	expect,
	frames,
	REACT_MS,
	test,
	textOf,
	untilStill
} from './fixtures.ts';

const orders = async (page: Parameters<typeof activityRows>[0]) =>
	(await activityRows(page)).map((r) => r.order);

test('twenty tips that came while no page was open are listed once each, with their outcomes', async ({
	page,
	stack
}) => {
	const outcomes = tipsWhileClosed(stack, 16, 4);
	await recordedTips(stack, outcomes);
	await openDock(page, stack);
	await activityShown(page);
	await setField(page, ACTIVITY.kind, 'tip');
	await expect.poll(async () => (await activityRows(page)).length, { timeout: REACT_MS }).toBe(20);
	const rows = await activityRows(page);
	expect(new Set(rows.map((r) => r.order)).size).toBe(20);
	expect(Object.fromEntries(rows.map((r) => [r.order, r.outcome]))).toEqual(outcomes);
	// Newest first: the last tip made is the first row.
	expect(rows[0].name).toBe('Closed 20');
	expect(rows.at(-1)!.name).toBe('Closed 1');
});

test('a new tip shows in the open Activity at once, and the idle dock then reads nothing', async ({
	page,
	stack
}) => {
	await countFrames(page);
	const reads: string[] = [];
	page.on('request', (r) => {
		if (new URL(r.url()).pathname.startsWith('/control/activity')) reads.push(r.url());
	});
	await openDock(page, stack);
	await activityShown(page);
	const tip = stack.sim.control.createTip({ name: 'Live one', amount: 3, message: 'hello live' });
	await expect.poll(() => orders(page), { timeout: REACT_MS }).toContain(tip.order_id);
	expect((await activityRows(page)).find((r) => r.order === tip.order_id)?.message).toBe(
		'hello live'
	);
	await untilStill(page);
	const [framesBefore, readsBefore] = [await frames(page), reads.length];
	await page.waitForTimeout(3000);
	expect(await frames(page)).toBe(framesBefore);
	expect(reads.length).toBe(readsBefore);
});

test('the kind filter and the name search show only what they match', async ({ page, stack }) => {
	const outcomes: Record<string, string> = {};
	for (const name of ['Ana', 'Anatole', 'Ben']) {
		const tip = stack.sim.control.createTip({ name, amount: 2, message: `from ${name}` });
		outcomes[tip.order_id] = 'queued';
	}
	stack.sim.control.model.setAccepting(false);
	await recordedTips(stack, outcomes);
	await expect
		.poll(async () => (await recorded(stack, { kind: 'tipping' })).length, { timeout: REACT_MS })
		.toBe(1);
	await openDock(page, stack);
	await activityShown(page);
	await expect
		.poll(async () => (await activityRows(page)).map((r) => r.kind).sort(), { timeout: REACT_MS })
		.toEqual(['tip', 'tip', 'tip', 'tipping']);
	await setField(page, ACTIVITY.kind, 'tipping');
	await expect.poll(async () => (await activityRows(page)).map((r) => r.kind)).toEqual(['tipping']);
	await setField(page, ACTIVITY.kind, 'tip');
	await setField(page, ACTIVITY.search, 'ana');
	await expect
		.poll(async () => (await activityRows(page)).map((r) => r.name).sort(), { timeout: REACT_MS })
		.toEqual(['Ana', 'Anatole']);
	await setField(page, ACTIVITY.search, 'nobody');
	await expect
		.poll(() => textOf(page, `${ACT} [data-testid=activity-empty]`), { timeout: REACT_MS })
		.toContain('Nothing matches');
});

test('Replay of a tip still in the queue says so and asks nothing of the tip service', async ({
	page,
	stack
}) => {
	const tip = stack.sim.control.createTip({ name: 'Waiting', amount: 2, message: 'not yet read' });
	await openDock(page, stack);
	await activityShown(page);
	await expect.poll(() => orders(page), { timeout: REACT_MS }).toContain(tip.order_id);
	await press(page, ACTIVITY.replay(tip.order_id));
	const entry = await page.evaluate(
		(sel) => document.querySelector<HTMLElement>(sel)!.dataset.entry!,
		ACTIVITY.row(tip.order_id)
	);
	await expect
		.poll(() => outcome(page, `activity-replay:${entry}`), { timeout: REACT_MS })
		.toMatch(/^already: /);
	expect(stack.calls('POST', new RegExp(`^/tts/${tip.order_id}/replay$`))).toEqual([]);
	expect(stack.sim.control.log.events('queue.tts.replayed')).toEqual([]);
});

test('a tip removed from the queue keeps its message hidden until Show', async ({
	page,
	stack
}) => {
	const tip = stack.sim.control.createTip({
		name: 'Spammer',
		amount: 1,
		message: 'meet me at the party'
	});
	await openDock(page, stack);
	await activityShown(page);
	expect((await controlAction(stack, 'tts-remove', tip.order_id)).body.outcome).toBe('done');
	const row = ACTIVITY.row(tip.order_id);
	await expect
		.poll(() => textOf(page, `${row} [data-testid=message-hidden]`), { timeout: REACT_MS })
		.toBe('message hidden');
	expect(await textOf(page, `${row} [data-outcome]`)).toBe('removed');
	expect(await textOf(page, row)).not.toContain('party');
	await press(page, ACTIVITY.show(tip.order_id));
	await expect
		.poll(() => textOf(page, `${row} [data-testid=message]`))
		.toBe('meet me at the party');
});

test('Replay of an old tip in the Activity plays it once more on the TTS widget', async ({
	page,
	stack
}) => {
	test.setTimeout(90_000);
	const widget = await page.context().newPage();
	await watchPlayback(widget);
	await widget.goto(stack.url('/widget/tts', fast));
	await ttsReady(widget);
	const old = stack.sim.control.createTip({ name: 'Encore', amount: 4, message: 'Once more.' });
	await eventually(() => ttsFinishesOf(stack, old.order_id).length === 1, 30_000);
	// More tips after it, so it is no longer the newest.
	for (let i = 1; i <= 3; i++) stack.sim.control.createTip({ name: `Later ${i}`, amount: i });
	await openDock(page, stack);
	await activityShown(page);
	await expect
		.poll(async () => (await activityRows(page)).find((r) => r.order === old.order_id)?.outcome, {
			timeout: 30_000
		})
		.toBe('read');

	await press(page, ACTIVITY.replay(old.order_id));
	const id = `activity-replay:${await page.evaluate(
		(sel) => document.querySelector<HTMLElement>(sel)!.dataset.entry!,
		ACTIVITY.row(old.order_id)
	)}`;
	// The replay is the tip service's call under the streamer's lock: more than a reaction on a
	// loaded machine.
	await expect.poll(() => outcome(page, id), { timeout: 20_000 }).toMatch(/^done: /);
	const { replay } = await replayedOnce(stack);
	expect((await cards(widget)).filter((c) => c === replay)).toHaveLength(1);
	expect(ttsStartsOf(stack, old.order_id)).toHaveLength(1);
});

test('Export CSV downloads the chosen range only', async ({ page, stack }) => {
	const before = stack.sim.control.createTip({ name: 'Before', amount: 1, message: 'early' });
	await openDock(page, stack);
	await activityShown(page);
	await expect.poll(() => orders(page), { timeout: REACT_MS }).toContain(before.order_id);
	await page.waitForTimeout(1100);
	const boundary = await localNow(page);
	await page.waitForTimeout(1100);
	const after = stack.sim.control.createTip({ name: 'After', amount: 2, message: 'late' });
	await expect.poll(() => orders(page), { timeout: REACT_MS }).toContain(after.order_id);

	const csvOf = async (from: string, to: string) => {
		await setField(page, ACTIVITY.from, from);
		await setField(page, ACTIVITY.to, to);
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			press(page, ACTIVITY.exportCsv)
		]);
		return readFileSync((await download.path())!, 'utf8');
	};
	const late = await csvOf(boundary, '');
	expect(late).toContain(after.order_id);
	expect(late).not.toContain(before.order_id);
	const early = await csvOf('', boundary);
	expect(early).toContain(before.order_id);
	expect(early).not.toContain(after.order_id);
	await expect.poll(() => outcome(page, 'activity-export')).toMatch(/^done: downloaded /);
});

test('Delete history, confirmed, empties the Activity', async ({ page, stack }) => {
	const outcomes = tipsWhileClosed(stack, 2, 1);
	await recordedTips(stack, outcomes);
	await openDock(page, stack);
	await activityShown(page);
	await expect.poll(async () => (await activityRows(page)).length).toBeGreaterThanOrEqual(3);
	await press(page, ACTIVITY.askDelete);
	expect(await textOf(page, `${ACT} [data-testid=delete-confirm]`)).toContain('Delete every entry');
	await press(page, ACTIVITY.delete);
	await expect
		.poll(() => outcome(page, 'activity-delete'), { timeout: REACT_MS })
		.toMatch(/^done: deleted \d+ entr/);
	await expect
		.poll(() => textOf(page, `${ACT} [data-testid=activity-empty]`), { timeout: REACT_MS })
		.toContain('Nothing recorded yet');
	expect(await recorded(stack)).toEqual([]);
});

test('the Activity fits at 300 px, full of long text, and passes axe-core', async ({
	page,
	stack
}, info) => {
	const long = LONG_NAME.repeat(4);
	for (let i = 1; i <= 12; i++)
		stack.sim.control.createTip({
			name: i % 2 ? long : `Short ${i}`,
			amount: 1000 * i + 0.5,
			message: i % 3 ? LONG_MESSAGE_UNBROKEN : `Tip ${i}.`
		});
	queueVideo(stack, `A video title that goes on and on, ${LONG_MESSAGE_UNBROKEN}`);
	stack.sim.control.model.setAccepting(false);
	await openDock(page, stack);
	await activityShown(page);
	await expect.poll(async () => (await activityRows(page)).length, { timeout: REACT_MS }).toBe(14);
	await press(page, ACTIVITY.askDelete);
	expect(await atEverySize(page, 'activity')).toEqual([]);

	await page.setViewportSize({ width: 300, height: 600 });
	await page.evaluate((act) => document.querySelector(act)!.scrollIntoView(), ACT);
	await settled(page);
	if (info.project.name === 'chromium') {
		const path = info.outputPath('activity-300x600.png');
		await page.locator(ACT).screenshot({ path, animations: 'disabled' });
		await info.attach('activity-300x600.png', { path, contentType: 'image/png' });
	}
	const results = await new AxeBuilder({ page }).include(ACT).analyze();
	expect(results.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
	expect(results.passes.length).toBeGreaterThan(5);
});

test('the Activity is used from the keyboard: Tab reaches its filter and search, typing finds', async ({
	page,
	stack
}) => {
	for (const name of ['Keyboard', 'Mouse']) stack.sim.control.createTip({ name, amount: 1 });
	await openDock(page, stack);
	await activityShown(page);
	await expect.poll(async () => (await activityRows(page)).length, { timeout: REACT_MS }).toBe(2);
	const focused = () =>
		page.evaluate(() => {
			const el = document.activeElement as HTMLElement | null;
			return el?.dataset.field ?? el?.textContent?.trim() ?? '';
		});
	await page.focus(`${ACT} h2 button`);
	const reached: string[] = [];
	for (let i = 0; i < 3; i++) {
		await page.keyboard.press('Tab');
		reached.push(await focused());
	}
	expect(reached).toEqual(["Set this stream's start", 'activity-kind', 'activity-search']);
	await page.keyboard.type('key');
	await expect
		.poll(async () => (await activityRows(page)).map((r) => r.name), { timeout: REACT_MS })
		.toEqual(['Keyboard']);
	// The heading's button closes the section and opens it again.
	await page.focus(`${ACT} h2 button`);
	await page.keyboard.press('Enter');
	await expect
		.poll(() => page.evaluate((a) => !!document.querySelector(`${a} form`), ACT))
		.toBe(false);
	await page.keyboard.press('Enter');
	await activityShown(page);
});
