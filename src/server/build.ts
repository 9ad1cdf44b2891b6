// `npm start` builds the bundle only when it is missing or older than its sources.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Found from this file, two folders below the repository root; the built server
// (vite.server.config.ts) sits two folders deep too, so the paths are the same built or not.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The built widget pages (`npm run build`, or ensureBundle). */
export const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

const SOURCES = ['src', 'widgets', 'public', 'vite.config.ts', 'package.json', 'package-lock.json'];
const STAMP = '.build-stamp';

function newest(path: string): number {
	if (!existsSync(path)) return 0;
	const st = statSync(path);
	if (!st.isDirectory()) return st.mtimeMs;
	let max = st.mtimeMs;
	for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
	return max;
}

function bundleIsStale(root: string, dist: string): boolean {
	const stamp = join(dist, STAMP);
	if (!existsSync(stamp)) return true;
	const built = statSync(stamp).mtimeMs;
	return SOURCES.some((s) => newest(join(root, s)) > built);
}

/** Vite is installed (a development dependency: absent after `npm ci --omit=dev`). */
function canBuild(root: string): boolean {
	return existsSync(join(root, 'node_modules', 'vite', 'package.json'));
}

async function buildBundle(root: string, dist: string): Promise<void> {
	const { createBuilder } = await import('vite');
	// The app builder, as `vite build` runs it: one build per page (vite.config.ts `builder`).
	const builder = await createBuilder({
		configFile: join(root, 'vite.config.ts'),
		logLevel: 'warn'
	});
	await builder.buildApp();
	writeFileSync(join(dist, STAMP), new Date().toISOString());
}

/** Builds the widgets when their sources changed (and Vite is installed); stops if none exist. */
export async function ensureBundle(): Promise<void> {
	if (!bundleIsStale(ROOT, DIST)) return;
	if (canBuild(ROOT)) {
		console.log('Building the widgets…');
		await buildBundle(ROOT, DIST);
	} else if (existsSync(join(DIST, 'index.html'))) {
		// An installation without the development dependencies (npm ci --omit=dev) serves what
		// `npm run build` built; its files may just look newer after a copy.
		console.warn(
			'Note: the widgets were built before their sources last changed (no Vite to rebuild).'
		);
	} else {
		console.error(
			'The widgets are not built, and this installation cannot build them (no Vite: installed with --omit=dev?). Run `npm ci && npm run build` first.'
		);
		process.exit(2);
	}
}
