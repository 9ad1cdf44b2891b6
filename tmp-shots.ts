import { chromium } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { DEMO_TENANTS, startSimulator } from './src/sim/index.ts';
import { startHosted } from './tests/fixtures/hosted.ts';
const dist = fileURLToPath(new URL('./dist', import.meta.url));
const sim = await startSimulator({ quiet: true, tenants: DEMO_TENANTS });
const hosted = await startHosted(sim, { dist });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [w, h] of [[1280, 800], [390, 844]]) {
	const ctx = await browser.newContext({ viewport: { width: w, height: h } });
	const page = await ctx.newPage();
	await page.goto(hosted.publicUrl);
	await page.screenshot({ path: `/tmp/x/landing-${w}.png`, fullPage: true });
	await page.click('button');
	await page.waitForURL((u) => u.pathname === '/oauth/authorize');
	await page.screenshot({ path: `/tmp/x/consent-${w}.png`, fullPage: true });
	await page.check('input[value=tn_nova]');
	await page.click('button[value=approve]');
	await page.waitForURL((u) => u.pathname === '/dashboard');
	await page.screenshot({ path: `/tmp/x/dashboard-${w}.png`, fullPage: true });
	await page.click('text=Disconnect');
	await page.waitForLoadState();
	await page.screenshot({ path: `/tmp/x/disconnected-${w}.png`, fullPage: true });
	await ctx.close();
}
await browser.close();
await hosted.close();
await sim.close();
