// What the dock's Activity e2e tests share (dock-activity.spec.ts): its rows and fields read and set
// through evaluate (dock.helpers.ts says why), the entries as the token endpoint answers them to a
// dock, and tips played or removed in the simulator while no page is open.
import type { Page } from '@playwright/test';
import type { ActivityEntry } from '../../src/contract/activity.ts';
import { expect, REACT_MS, type Stack } from './fixtures.ts';

export const ACT = '[data-testid=activity]';
/** The Activity's buttons and fields. */
export const ACTIVITY = {
	row: (id: string) => `${ACT} li[data-order="${id}"]`,
	replay: (id: string) => `${ACT} li[data-order="${id}"] button[data-action=activity-replay]`,
	show: (id: string) => `${ACT} li[data-order="${id}"] button[data-action=show-message]`,
	kind: `${ACT} [data-field=activity-kind]`,
	search: `${ACT} [data-field=activity-search]`,
	more: `${ACT} button[data-action=activity-more]`,
	from: `${ACT} [data-field=export-from]`,
	to: `${ACT} [data-field=export-to]`,
	exportCsv: `${ACT} button[data-action=activity-export]`,
	askDelete: `${ACT} button[data-action=activity-delete-ask]`,
	delete: `${ACT} button[data-action=activity-delete]`
};

export interface Row {
	kind: string;
	order: string | null;
	outcome: string | null;
	name: string;
	message: string | null;
}

/** The Activity's rows as the dock shows them, top to bottom. */
export const activityRows = (page: Page): Promise<Row[]> =>
	page.evaluate((act) => {
		const rows = document.querySelectorAll<HTMLElement>(`${act} li[data-entry]`);
		return [...rows].map((li) => ({
			kind: li.dataset.kind ?? '',
			order: li.dataset.order ?? null,
			outcome: li.querySelector<HTMLElement>('[data-outcome]')?.dataset.outcome ?? null,
			name: li.querySelector('.name')?.textContent ?? '',
			message: li.querySelector('[data-testid=message]')?.textContent ?? null
		}));
	}, ACT);

/** Sets a field as a person does: its value, then the event its form listens to (bubbling, as
 *  Svelte hears it at the root). */
export function setField(page: Page, selector: string, value: string): Promise<void> {
	return page.evaluate(
		([sel, v]) => {
			const el = document.querySelector<HTMLInputElement | HTMLSelectElement>(sel)!;
			el.value = v;
			el.dispatchEvent(
				new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true })
			);
		},
		[selector, value] as const
	);
}

/** GET /control/activity from the test process, as a dock asks it. */
export async function recorded(stack: Stack, query: Record<string, string> = {}) {
	const res = await fetch(`${stack.origin}/control/activity?${new URLSearchParams(query)}`, {
		headers: { 'x-control-key': stack.controlKey }
	});
	expect(res.status).toBe(200);
	return ((await res.json()) as { entries: ActivityEntry[] }).entries;
}

/** Waits until the token endpoint has recorded these tips with these outcomes. */
export async function recordedTips(stack: Stack, outcomes: Record<string, string>): Promise<void> {
	const want = Object.keys(outcomes).length;
	await expect
		.poll(
			async () => {
				const tips = await recorded(stack, { kind: 'tip', limit: '100' });
				return tips.filter((e) => e.kind === 'tip' && outcomes[e.order_id] === e.outcome).length;
			},
			{ timeout: 20_000 }
		)
		.toBe(want);
}

/** Opens the Activity when it is closed, and waits for its list (or its empty line). */
export async function activityShown(page: Page): Promise<void> {
	await expect
		.poll(
			() =>
				page.evaluate(
					(act) =>
						!!document.querySelector(
							`${act} [data-testid=activity-list], ${act} [data-testid=activity-empty]`
						),
					ACT
				),
			{ timeout: REACT_MS }
		)
		.toBe(true);
}

/**
 * Tips that came and went while no page was open: `read` of them played to their end, `removed`
 * taken out of the queue (both in the simulator, as an OBS source and the streamer would). Answers
 * each tip's order id with the outcome the Activity should show.
 */
export function tipsWhileClosed(stack: Stack, read: number, removed: number) {
	const m = stack.sim.control.model;
	const outcomes: Record<string, string> = {};
	for (let i = 1; i <= read + removed; i++) {
		const tip = stack.sim.control.createTip({ name: `Closed ${i}`, amount: i, message: `n${i}` });
		if (i <= read) {
			m.start('tts', tip.order_id);
			m.finish('tts', tip.order_id);
			outcomes[tip.order_id] = 'read';
		} else {
			m.remove('tts', tip.order_id);
			outcomes[tip.order_id] = 'removed';
		}
	}
	return outcomes;
}

/** A date-time box's value for the browser's clock now, to the second (`2026-12-01T20:15:07`). */
export const localNow = (page: Page): Promise<string> =>
	page.evaluate(() => {
		const d = new Date();
		const two = (n: number) => String(n).padStart(2, '0');
		const day = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
		return `${day}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
	});
