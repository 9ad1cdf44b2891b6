// The floor of the mandated stack: what a page costs with Svelte 5 alone and with Svelte 5 plus
// zod/mini, before any of our code, so that the weight and heap budgets can be read against it.
// The pages live in bench/floor/ and are built here (same target as the product) into a temporary
// directory, never into dist/; their heap is measured the way the idle part measures ours.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openPage } from './browser.ts';
import { pageWeights } from './weight.ts';

const SOURCES = fileURLToPath(new URL('./floor/', import.meta.url));
/** Built from bench/floor/<page>.html, each on its own (no chunk shared between them). */
export const FLOOR_PAGES = ['svelte', 'svelte-zod'] as const;
const EMPTY = '<!doctype html><title>empty</title>';

export interface FloorPage {
	page: 'empty' | (typeof FLOOR_PAGES)[number];
	/** gzip -9 bytes, as bench/weight.ts counts them (0 for the empty page). */
	jsGz: number;
	cssGz: number;
	totalGz: number;
	/** JS heap after GC, one figure per load (MB). */
	heapMb: number[];
}

export async function floorRun(opts: { loads: number }): Promise<FloorPage[]> {
	// Loaded here, not at the top: only this part needs the bundler.
	const { build } = await import('vite');
	const { svelte } = await import('@sveltejs/vite-plugin-svelte');
	const out = mkdtempSync(join(tmpdir(), 'bench-floor-'));
	try {
		const weights = new Map<string, Omit<FloorPage, 'page' | 'heapMb'>>();
		for (const page of FLOOR_PAGES) {
			const outDir = join(out, page);
			await build({
				configFile: false,
				root: SOURCES,
				logLevel: 'warn',
				// Relative asset URLs: each page is served from its own folder.
				base: './',
				plugins: [svelte()],
				build: {
					outDir,
					emptyOutDir: true,
					target: 'chrome103',
					modulePreload: { polyfill: false },
					rolldownOptions: { input: join(SOURCES, `${page}.html`) }
				}
			});
			const [w] = pageWeights(outDir);
			weights.set(page, { jsGz: w.jsGz, cssGz: w.cssGz, totalGz: w.totalGz });
		}
		// Served over http from loopback like the product (module scripts do not load from file:).
		const server = createServer((req, res) => {
			const path = new URL(req.url ?? '/', 'http://x').pathname;
			if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(EMPTY);
			try {
				const body = readFileSync(join(out, path));
				const type = path.endsWith('.js')
					? 'text/javascript'
					: path.endsWith('.css')
						? 'text/css'
						: 'text/html';
				res.writeHead(200, { 'content-type': type }).end(body);
			} catch {
				res.writeHead(404).end();
			}
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		const b = await launch();
		try {
			const pages: FloorPage[] = [];
			for (const page of ['empty', ...FLOOR_PAGES] as const) {
				const heapMb: number[] = [];
				for (let i = 0; i < opts.loads; i++) {
					const p = await openPage(b);
					await p.page.goto(page === 'empty' ? `${origin}/` : `${origin}/${page}/${page}.html`);
					if (page !== 'empty') await p.waitFor(`!!document.querySelector('[data-testid=floor]')`);
					heapMb.push((await p.heapAfterGc()) / 2 ** 20);
					await p.close();
				}
				const w = weights.get(page) ?? { jsGz: 0, cssGz: 0, totalGz: 0 };
				pages.push({ page, ...w, heapMb });
			}
			return pages;
		} finally {
			await b.close();
			server.close();
		}
	} finally {
		rmSync(out, { recursive: true, force: true });
	}
}
