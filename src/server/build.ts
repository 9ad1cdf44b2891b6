// `npm start` builds the bundle only when it is missing or older than its sources.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

export function bundleIsStale(root: string, dist: string): boolean {
	const stamp = join(dist, STAMP);
	if (!existsSync(stamp)) return true;
	const built = statSync(stamp).mtimeMs;
	return SOURCES.some((s) => newest(join(root, s)) > built);
}

/** Vite is installed (a development dependency: absent after `npm ci --omit=dev`). */
export function canBuild(root: string): boolean {
	return existsSync(join(root, 'node_modules', 'vite', 'package.json'));
}

export async function buildBundle(root: string, dist: string): Promise<void> {
	const { createBuilder } = await import('vite');
	// The app builder, as `vite build` runs it: one build per page (vite.config.ts `builder`).
	const builder = await createBuilder({
		configFile: join(root, 'vite.config.ts'),
		logLevel: 'warn'
	});
	await builder.buildApp();
	writeFileSync(join(dist, STAMP), new Date().toISOString());
}
