import { svelte } from '@sveltejs/vite-plugin-svelte';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { normalizePath, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const pagesDir = here('./src/pages/');

// The pages (multi-page build: each page loads only its own code) and their titles. A page is
// src/pages/<name>.ts; its HTML document is the same for every page (pageHtml), so it is written
// once, here, and handed to the build and the dev server as src/pages/<name>.html.
const titles: Record<string, string> = {
	index: 'Tip Overlay Kit',
	dock: 'Dock – Tip Overlay Kit',
	editor: 'Settings – Tip Overlay Kit',
	overlay: 'Overlay – Tip Overlay Kit',
	preview: 'Preview – Tip Overlay Kit',
	'widget-celebration': 'Celebration – Tip Overlay Kit',
	'widget-counters': 'Counters – Tip Overlay Kit',
	'widget-leaderboard': 'Top supporters – Tip Overlay Kit',
	'widget-media': 'Media – Tip Overlay Kit',
	'widget-recent': 'Recent events – Tip Overlay Kit',
	'widget-tip-goal': 'Tip goal – Tip Overlay Kit',
	'widget-tts': 'TTS – Tip Overlay Kit'
};
const pages = Object.fromEntries(
	Object.keys(titles).map((name) => [name, normalizePath(pagesDir + name + '.html')])
);

const pageHtml = (name: string) => `<!doctype html>
<html lang="en">
	<head>
		<meta charset="utf-8" />
		<meta name="viewport" content="width=device-width, initial-scale=1" />
		<link rel="icon" href="data:," />
		<title>${titles[name]}</title>
	</head>
	<body>
		<div id="app"></div>
		<script type="module" src="./${name}.ts"></script>
	</body>
</html>
`;

/** src/pages/<name>.html from pageHtml: the build's entries, and what the dev server serves. */
function pageDocuments(): Plugin {
	const pageOf = (id: string) => Object.keys(pages).find((name) => pages[name] === id);
	return {
		name: 'page-documents',
		resolveId: (id) => (pageOf(id) ? id : null),
		load(id) {
			const name = pageOf(id);
			return name ? pageHtml(name) : null;
		},
		configureServer(server) {
			server.middlewares.use((req, res, next) => {
				const path = req.url?.split('?')[0] ?? '';
				const name = path === '/' ? 'index' : /^\/([\w-]+)\.html$/.exec(path)?.[1];
				if (!name || !(name in titles)) return next();
				server.transformIndexHtml(req.url!, pageHtml(name)).then((html) => {
					res.setHeader('Content-Type', 'text/html');
					res.end(html);
				}, next);
			});
		}
	};
}

// Environment names allow only letters, digits, '$' and '_'.
const envName = (page: string) => 'page_' + page.replace(/\W/g, '_');

export default defineConfig({
	root: pagesDir,
	publicDir: here('./public'),
	plugins: [
		svelte({
			// Scoped class names `s-<hash>` instead of `svelte-<hash>`: the same hash of the file, on every
			// element of every component's markup and in its CSS (about 0.1 kB gzipped a page).
			compilerOptions: { cssHash: ({ hash, filename, css }) => `s-${hash(filename ?? css)}` }
		}),
		pageDocuments()
	],
	resolve: { conditions: ['browser'] },
	build: {
		outDir: here('./dist'),
		// OBS 30 ships Chromium 103; OBS 31/32 ship 127. Build for the oldest.
		target: 'chrome103',
		// Every engine we support has <link rel="modulepreload"> (Chromium 66+): no polyfill.
		modulePreload: { polyfill: false },
		// One stylesheet a page: the overlay's media player (loaded on demand) brings no stylesheet of
		// its own, and its rules compress with the page's (0.5 kB gzipped less on the overlay, which
		// counts the player's CSS either way).
		cssCodeSplit: false
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
					// The browser's CSS.supports, which the colour parameters ask (no CSSOM in Node).
					setupFiles: ['tests/fixtures/css-supports.ts'],
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
