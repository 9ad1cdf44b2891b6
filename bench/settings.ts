// `npm run bench:settings`: how long a save of stored settings takes to reach the open OBS sources
// (the target: within a second). The simulator and the token endpoint in this process, the built
// dist/ (`npm run build` first), three sources open in the system Chromium (TTS, counters and media
// pages, each with debug=1), then saves of the TTS, counters and media targets in turn: the time
// from sending the PUT until every page's debug panel shows the saved value, seen by a
// MutationObserver in the page (the same clock: one machine). Prints the median, p95 and max; no
// budget is enforced here, the figure is for reading.
import { chromium } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { serveApp } from '../src/server/serve.ts';
import { startSimulator } from '../src/sim/index.ts';
import { checkSettings } from '../tests/fixtures/settings.ts';
import { chromiumArgs, systemChromium } from '../tests/e2e/engines.ts';

const SAVES = Number(process.env.SAVES ?? 30);
const OVERLAY_KEY = 'bench_settings_overlay_key';
const CONTROL_KEY = 'bench_settings_control_key';
const dist = fileURLToPath(new URL('../dist', import.meta.url));

const sim = await startSimulator({ quiet: true });
const served = await serveApp({
	mode: 'demo',
	upstream: { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey },
	overlayKey: OVERLAY_KEY,
	controlKey: CONTROL_KEY,
	dist,
	simulatorOrigin: sim.origin,
	checkSettings
});
const browser = await chromium.launch({ executablePath: systemChromium, args: [...chromiumArgs] });
const sources = ['tts', 'counters', 'media'] as const;
const pages = await Promise.all(
	sources.map(async (kind) => {
		const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
		await page.goto(`${served.origin}/widget/${kind}?key=${OVERLAY_KEY}&debug=1`);
		await page.waitForFunction(() => document.querySelector('[data-status=ready]') !== null, null, {
			timeout: 30_000
		});
		return { kind, page };
	})
);

/**
 * Resolves with the epoch ms at which the page's text first contains `text`. A string, not a
 * function: tsx would wrap a function's inner functions in a helper the page does not have.
 */
function seen(page: (typeof pages)[number]['page'], text: string): Promise<number> {
	return page.evaluate(`new Promise((resolve) => {
		const check = () => document.body.textContent.includes(${JSON.stringify(text)});
		if (check()) return resolve(Date.now());
		new MutationObserver((_, obs) => {
			if (!check()) return;
			obs.disconnect();
			resolve(Date.now());
		}).observe(document.body, { subtree: true, childList: true, characterData: true });
	})`);
}

const took: number[] = [];
for (let i = 0; i < SAVES; i++) {
	// A value no page shows yet: the accent colour, different every save.
	const accent = `#${(0x102030 + i * 0x010101).toString(16)}`;
	const waits = pages.map(({ page }) => seen(page, `${accent} (stored settings)`));
	const sent = Date.now();
	const saves = sources.map((target) =>
		fetch(`${served.origin}/control/settings/${target}`, {
			method: 'PUT',
			headers: { 'X-Control-Key': CONTROL_KEY, 'Content-Type': 'application/json' },
			body: JSON.stringify({ values: { accent } })
		})
	);
	for (const res of await Promise.all(saves))
		if (!res.ok) throw new Error(`save answered ${res.status}: ${await res.text()}`);
	took.push(Math.max(...(await Promise.all(waits))) - sent);
}
took.sort((a, b) => a - b);
const at = (q: number) => took[Math.min(took.length - 1, Math.floor(q * took.length))];
console.log(
	`saves of 3 targets reaching 3 open sources (${SAVES} saves): median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${took.at(-1)} ms`
);
await browser.close();
await served.close();
await sim.close();
