// Helpers for tests that must also run in OBS 30's Chromium 103.
//
// Playwright's injected script calls `Element.checkVisibility()`, which Chromium only has since
// 105. In 103 everything that asks "is it visible?" throws `element.checkVisibility is not a
// function`: `locator.click()` and other actions with actionability checks, `toBeVisible()`,
// `toBeHidden()`, `getByRole()` (it skips hidden elements), and `locator.evaluate()`.
// What does work in 103: `toHaveText()`, `toContainText()`, `textContent()`, `innerText()`,
// `getByTestId()`, `getByText()`, CSS locators, `locator.dispatchEvent()`,
// `locator.click({ force: true })`, `page.evaluate()` and `page.mouse`.
//
// User activation: Playwright gives the page sticky user activation while it sets the page up,
// before the test's first line, and every `page.evaluate` runs as a user gesture. So a test cannot
// prove that something works without a gesture; the engines are launched with
// `--autoplay-policy=no-user-gesture-required`, as OBS browser sources are.
import type { Locator } from '@playwright/test';

/**
 * Clicks an element without Playwright's actionability checks (visible, stable, enabled), which
 * throw in Chromium 103. Dispatches a `click` event on the element itself (`isTrusted` is false),
 * so what is drawn over the element does not matter; it waits only for the element to be attached.
 * Use `locator.click({ force: true })` instead when a test needs trusted mouse events at the
 * element's position.
 */
export async function dispatchClick(locator: Locator): Promise<void> {
	await locator.dispatchEvent('click');
}
