// What the settings editor's specs share: the editor's root, waiting for it to be ready, and setting
// one field of its form as a person would (inside the page: Chromium 103 has no checkVisibility).
import type { Page } from '@playwright/test';
import { attrOf, expect } from './fixtures.ts';

export const EDITOR = '[data-testid=settings-editor]';

export async function editorReady(page: Page): Promise<void> {
	await expect.poll(() => attrOf(page, EDITOR, 'data-status'), { timeout: 20_000 }).toBe('ready');
}

/** Types a value into a field of the form (its text input or its select), as a person would. */
export function setField(page: Page, name: string, value: string): Promise<void> {
	return page.evaluate(
		([n, v]) => {
			const el = document.querySelector<HTMLInputElement | HTMLSelectElement>(
				`[data-field="${n}"] select, [data-field="${n}"] input:not(.picker):not([type=checkbox])`
			);
			if (!el) throw new Error(`no field ${n}`);
			el.value = v;
			el.dispatchEvent(new Event('input', { bubbles: true }));
			el.dispatchEvent(new Event('change', { bubbles: true }));
		},
		[name, value] as const
	);
}
