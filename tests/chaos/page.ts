// A real overlay page in the chaos run: the built bundle (dist/) served by the token endpoint,
// `/overlay/o_1a2b3c4d` (a TTS and a media widget on one connection) open in headless Chromium with
// autoplay allowed, as OBS runs it. It plays real audio and video at real speed and reloads on
// demand; the ledger sees its plays through the simulator's log (audio and video fetches), since
// a page keeps no play records of ours.
import { chromium, type Browser, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveApp, type ServedApp } from '../../src/server/serve.ts';
import { chromiumArgs, systemChromium } from '../e2e/engines.ts';
import type { RunningSimulator } from '../../src/sim/index.ts';
import type { ChaosRecorder } from './consumers.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
export const PAGE_OVERLAY = 'o_1a2b3c4d';
const PAGE_KEY = 'chaos_page_overlay_key_0123456789';

export class PageConsumer {
	private app: ServedApp | null = null;
	private browser: Browser | null = null;
	private page: Page | null = null;
	private lives = 0;
	private life: string | null = null;

	private constructor(
		private readonly rec: ChaosRecorder,
		readonly name = 'P'
	) {}

	static async open(sim: RunningSimulator, rec: ChaosRecorder): Promise<PageConsumer> {
		if (!existsSync(`${dist}/overlay.html`))
			throw new Error('the chaos page needs the built bundle: run `npm run build` first');
		const p = new PageConsumer(rec);
		p.app = await serveApp({
			mode: 'live',
			upstream: { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey },
			overlayKey: PAGE_KEY,
			dist
		});
		p.browser = await chromium.launch({
			executablePath: systemChromium,
			args: [...chromiumArgs]
		});
		p.page = await (
			await p.browser.newContext({ viewport: { width: 1920, height: 1080 } })
		).newPage();
		p.page.on('console', (m) => {
			// A refused claim call (409 already_playing) is the protocol at work, not news.
			if (
				(m.type() === 'error' || m.type() === 'warning') &&
				!m.text().startsWith('Failed to load resource')
			)
				rec.logs.push(`${new Date().toISOString()} ${p.life} [page ${m.type()}] ${m.text()}`);
		});
		p.page.on('pageerror', (e) =>
			rec.logs.push(`${new Date().toISOString()} ${p.life} [page error] ${e.message}`)
		);
		await p.start();
		return p;
	}

	get url(): string {
		const q = new URLSearchParams({ key: PAGE_KEY, min_display: '0', gap: '0', claim: 'always' });
		return `${this.app!.origin}/overlay/${PAGE_OVERLAY}?${q}`;
	}

	private begin(): void {
		this.lives += 1;
		this.life = `${this.name}#${this.lives}`;
		this.rec.lives.push({ life: this.life, startedAt: Date.now(), endedAt: null });
	}

	private end(how: 'reload' | 'end'): void {
		const span = this.rec.lives.find((l) => l.life === this.life);
		if (span) Object.assign(span, { endedAt: Date.now(), how });
	}

	private async start(): Promise<void> {
		this.begin();
		await this.page!.goto(this.url);
	}

	/** OBS refreshing the source: the page dies mid-whatever and loads again. */
	async reload(): Promise<void> {
		this.end('reload');
		this.begin();
		await this.page!.reload().catch((e: Error) =>
			this.rec.logs.push(`page reload failed: ${e.message}`)
		);
	}

	async close(): Promise<void> {
		this.end('end');
		await this.browser?.close();
		await this.app?.close();
	}
}
