// The production build of the token endpoint and the simulator (`npm run build`, after the widgets):
// src/server/node.ts bundled to JavaScript in dist-server/server/, so that `npm start` runs on
// Node alone, with only the runtime dependencies of package.json installed (`npm ci --omit=dev`).
// Packages stay imports (Vite's server build leaves node_modules outside the bundle).
//
// The output sits two folders deep, as src/server/node.ts does, so that the paths the server
// finds relative to its own file (the repository root, dist/, public/) are the same built or not.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
	root,
	publicDir: false,
	logLevel: 'warn',
	build: {
		ssr: fileURLToPath(new URL('./node.ts', import.meta.url)),
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
