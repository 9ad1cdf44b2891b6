// The production build of the server process (`npm run build`, after the widgets): the entry point
// src/main.ts with everything it starts (token endpoint, hosted mode, simulator) bundled to
// JavaScript in dist-server/server/, so that `npm start` runs on Node alone, with only the runtime
// dependencies of package.json installed (`npm ci --omit=dev`). Packages stay imports (Vite's
// server build leaves node_modules outside the bundle).
//
// The output sits two folders deep, as src/server/ and src/sim/ do, so that the paths their modules
// find relative to their own file (the repository root, dist/, public/) are the same built or not.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
	root,
	publicDir: false,
	logLevel: 'warn',
	build: {
		ssr: fileURLToPath(new URL('./src/main.ts', import.meta.url)),
		outDir: 'dist-server/server',
		emptyOutDir: true,
		target: 'node20',
		minify: false,
		sourcemap: true,
		rolldownOptions: {
			output: {
				format: 'esm',
				entryFileNames: '[name].js',
				chunkFileNames: '[name]-[hash].js'
			}
		}
	}
});
