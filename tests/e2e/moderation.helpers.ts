// What the moderation e2e tests (dock-moderation, dock-videos, tts-moderation, media-moderation)
// share: the dock's Rules section opened and typed into as a person does, the rules as the token
// endpoint stores them, the control calls a dock sends (saved rules, Approve), and a viewer's tip
// that requests a demo video. Pressed and read through evaluate (dock.helpers.ts says why).
import type { Page } from '@playwright/test';
import { demoVideos } from '../../src/sim/demo-videos.ts';
import { press } from './dock.helpers.ts';
import { attrOf, expect, REACT_MS, type Stack } from './fixtures.ts';

export const RULES = '[data-testid=rules]';

/** Opens the Rules section (its disclosure button) unless it is open. */
export async function openRules(page: Page): Promise<void> {
	if ((await attrOf(page, `${RULES} h2 button`, 'aria-expanded')) !== 'true')
		await press(page, `${RULES} h2 button`);
	await expect
		.poll(() => page.evaluate((s) => !!document.querySelector(`${s} textarea`), RULES), {
			timeout: REACT_MS
		})
		.toBe(true);
}

/** Types into a field of the Rules form as a person does (the value, then its input event). */
export function type(page: Page, selector: string, value: string): Promise<void> {
	return page.evaluate(
		([sel, v]) => {
			const el = document.querySelector<HTMLTextAreaElement | HTMLInputElement>(sel)!;
			el.value = v;
			el.dispatchEvent(new Event('input', { bubbles: true }));
		},
		[selector, value] as const
	);
}

/** A call of the dock's to /control, from the test process; its JSON answer (200 expected). */
export async function control(stack: Stack, method: string, path: string, body?: unknown) {
	const res = await fetch(`${stack.origin}/control${path}`, {
		method,
		headers: { 'x-control-key': stack.controlKey, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	expect(res.status, `${method} /control${path}`).toBe(200);
	return res.json() as Promise<{ outcome?: string } & Record<string, any>>;
}

/** The rules as the token endpoint stores them. */
export const storedRules = (stack: Stack) => control(stack, 'GET', '/moderation');

/** Saves the rules as the dock does. */
export const saveRules = (stack: Stack, rules: object) =>
	control(stack, 'PUT', '/moderation', rules);

/** A viewer's tip that requests a demo video (the tip's order id is the video's). */
export function tipWithVideo(
	stack: Stack,
	tip: { name: string; amount: number; message?: string },
	file = 'countdown'
) {
	const demo = demoVideos.find((v) => v.file === `/demo/${file}.webm`)!;
	return stack.sim.control.createTip({
		message: 'hi',
		...tip,
		paid: true,
		media: {
			url: `${stack.sim.origin}${demo.file}`,
			title: demo.title,
			thumbnail: `${stack.sim.origin}${demo.thumbnail}`,
			duration: demo.duration,
			requested_via: 'tip'
		}
	});
}
