// The floor of the specified stack: what a page costs with Svelte 5 and the libraries the product is
// specified on (zod/mini, howler, gsap, reconnecting-websocket), each imported and used once, before
// any of our code, so that the weight and heap budgets can be read against it. A floor page is
// generated for a set of libraries (bench/floor/use-*.ts, one module a library, so an unused one is
// not bundled at all), built with the product's target into a temporary folder (never dist/), and
// its heap is measured the way the idle part measures ours.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openPage } from './browser.ts';
import type { LIBRARIES } from './shares.ts';
import { pageWeights } from './weight.ts';

/** A library of the stack beside Svelte (which every page has). */
export type Library = Exclude<(typeof LIBRARIES)[number], 'svelte'>;
const USE: Record<Library, string> = {
	zod: 'use-zod.ts',
	howler: 'use-howler.ts',
	gsap: 'use-gsap.ts',
	'reconnecting-websocket': 'use-rws.ts'
};
const ALL = Object.keys(USE) as Library[];
const SOURCES = fileURLToPath(new URL('./floor/', import.meta.url));
const CACHE = fileURLToPath(new URL('../node_modules/.cache/bench-floor/', import.meta.url));
/** The floor pages the floor part reports (weight and heap). */
export const FLOOR_PAGES: Record<string, readonly Library[]> = {
	svelte: [],
	'svelte-zod': ['zod'],
	stack: ALL
};
const EMPTY = '<!doctype html><title>empty</title>';

export interface FloorWeight {
	/** gzip -9 bytes, as bench/weight.ts counts them. */
	jsGz: number;
	cssGz: number;
	totalGz: number;
}

export interface FloorPage extends FloorWeight {
	page: string;
	/** JS heap after GC, one figure per load (MB). */
	heapMb: number[];
}

/** The name of the floor page of a set of libraries ('svelte+gsap+zod'). */
export function floorName(libs: readonly Library[]): string {
	return ['svelte', ...[...libs].sort()].join('+');
}

/** Builds the floor page of each set of libraries into `out/<name>/`; returns their weights. */
async function buildFloors(
	sets: Record<string, readonly Library[]>,
	out: string
): Promise<Map<string, FloorWeight>> {
	// Loaded here, not at the top: only the floor needs the bundler.
	const { build } = await import('vite');
	const { svelte } = await import('@sveltejs/vite-plugin-svelte');
	rmSync(CACHE, { recursive: true, force: true });
	mkdirSync(CACHE, { recursive: true });
	const weights = new Map<string, FloorWeight>();
	try {
		for (const [page, libs] of Object.entries(sets)) {
			const uses = libs.map((lib, i) => `import { use as use${i} } from '${SOURCES}${USE[lib]}';`);
			writeFileSync(
				join(CACHE, `${page}.ts`),
				[
					`import { mountFloor } from '${SOURCES}mount.ts';`,
					...uses,
					`mountFloor([${libs.map((_, i) => `use${i}`).join(', ')}]);`
				].join('\n')
			);
			writeFileSync(
				join(CACHE, `${page}.html`),
				`<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>floor: ${page}</title>` +
					`</head><body><div id="app"></div><script type="module" src="./${page}.ts"></script></body></html>`
			);
			const outDir = join(out, page);
			await build({
				configFile: false,
				root: CACHE,
				logLevel: 'warn',
				// Relative asset URLs: each page is served from its own folder.
				base: './',
				plugins: [svelte()],
				build: {
					outDir,
					emptyOutDir: true,
					target: 'chrome103',
					modulePreload: { polyfill: false },
					rolldownOptions: { input: join(CACHE, `${page}.html`) }
				}
			});
			const [w] = pageWeights(outDir);
			weights.set(page, { jsGz: w.jsGz, cssGz: w.cssGz, totalGz: w.totalGz });
		}
	} finally {
		rmSync(CACHE, { recursive: true, force: true });
	}
	return weights;
}

/** The weights of the floor pages of these sets of libraries (no browser). */
export async function floorWeights(
	sets: readonly (readonly Library[])[]
): Promise<Map<string, FloorWeight>> {
	const out = mkdtempSync(join(tmpdir(), 'bench-floor-'));
	try {
		return await buildFloors(Object.fromEntries(sets.map((libs) => [floorName(libs), libs])), out);
	} finally {
		rmSync(out, { recursive: true, force: true });
	}
}

export async function floorRun(opts: { loads: number }): Promise<FloorPage[]> {
	const out = mkdtempSync(join(tmpdir(), 'bench-floor-'));
	try {
		const weights = await buildFloors(FLOOR_PAGES, out);
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
			for (const page of ['empty', ...Object.keys(FLOOR_PAGES)]) {
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
