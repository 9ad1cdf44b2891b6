import { expect, test } from '@playwright/test';
import type { EngineMetadata } from './playwright.config.ts';
import { dispatchClick } from './helpers.ts';

test.beforeEach(async ({ page }) => {
	await page.goto('/');
});

test('the landing page mounts its Svelte component', async ({ page }) => {
	await expect(page).toHaveTitle('Tip Overlay Kit');
	// The heading and the engine check are rendered by Home.svelte, not written in index.html.
	await expect(page.locator('#app h1')).toHaveText('Tip Overlay Kit');
	await expect(page.getByTestId('click-count')).toHaveText('0');
});

test('the engine check shows the Chrome major version of the engine it runs in', async ({
	page,
	browser
}, testInfo) => {
	testInfo.annotations.push({ type: 'engine', description: browser.version() });
	const reported = Number(browser.version().split('.')[0]);
	const { chromeMajor } = testInfo.project.metadata as EngineMetadata;
	// The OBS projects must really be running the Chromium that OBS embeds.
	if (chromeMajor !== undefined) expect(reported).toBe(chromeMajor);

	await expect(page.getByTestId('chrome-major')).toHaveText(String(reported));
	await expect(page.getByTestId('engine-support')).toHaveText('supported');
});

test('the counter increments each time it is clicked', async ({ page }) => {
	const counter = page.getByTestId('counter');
	const count = page.getByTestId('click-count');

	await dispatchClick(counter);
	await expect(count).toHaveText('1');
	await expect(counter).toHaveText('Clicked 1 time');

	await dispatchClick(counter);
	await dispatchClick(counter);
	await expect(count).toHaveText('3');
	await expect(counter).toHaveText('Clicked 3 times');
});
