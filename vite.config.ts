import { svelte } from '@sveltejs/vite-plugin-svelte';
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const pagesDir = here('./src/pages/');

// One HTML entry per page under src/pages/ (multi-page build): each page loads only its own code.
const pages = Object.fromEntries(
	readdirSync(pagesDir)
		.filter((f) => f.endsWith('.html'))
		.map((f) => [f.replace(/\.html$/, ''), pagesDir + f])
);

// Environment names allow only letters, digits, '$' and '_'.
const envName = (page: string) => 'page_' + page.replace(/\W/g, '_');

export default defineConfig({
	root: pagesDir,
	publicDir: here('./public'),
	plugins: [svelte()],
	resolve: { conditions: ['browser'] },
	build: {
		outDir: here('./dist'),
		// OBS 30 ships Chromium 103; OBS 31/32 ship 127. Build for the oldest.
		target: 'chrome103',
		// Every engine we support has <link rel="modulepreload"> (Chromium 66+): no polyfill.
		modulePreload: { polyfill: false }
	},
	// Each page is built on its own (one environment per page): an OBS browser source loads one
	// page, so a chunk shared between pages would only carry code this page never runs.
	environments: Object.fromEntries(
		Object.entries(pages).map(([name, html], i) => [
			envName(name),
			{
				consumer: 'client',
				build: {
					emptyOutDir: false,
					// public/ (the demo videos) is copied into dist/ once, by the first page's build.
					copyPublicDir: i === 0,
					rolldownOptions: { input: { [name]: html } }
				}
			}
		])
	),
	builder: {
		async buildApp(builder) {
			rmSync(here('./dist'), { recursive: true, force: true });
			for (const name of Object.keys(pages))
				await builder.build(builder.environments[envName(name)]);
		}
	},
	test: {
		root: here('./'),
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					root: here('./'),
					include: ['tests/unit/**/*.test.ts'],
					environment: 'node',
					// Property tests run thousands of cases; a loaded 2-core CI machine needs headroom.
					testTimeout: 30_000
				}
			},
			{
				extends: true,
				test: {
					name: 'integration',
					root: here('./'),
					include: ['tests/integration/**/*.test.ts'],
					environment: 'node',
					testTimeout: 20_000,
					hookTimeout: 20_000
				}
			}
		]
	}
});
