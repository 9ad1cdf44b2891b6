// `npm start` on Node alone: runs the built entry point (src/main.ts built to
// dist-server/server/main.js, see vite.server.config.ts), building it first when it is missing or
// older than its sources. Building needs the development dependencies; an installation made with
// `npm ci --omit=dev` runs what `npm run build` built. Plain JavaScript: it must run before
// anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'dist-server', 'server', 'main.js');
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const SOURCES = ['src', 'vite.server.config.ts', 'package.json', 'package-lock.json'];

function newest(path) {
	if (!existsSync(path)) return 0;
	const st = statSync(path);
	if (!st.isDirectory()) return st.mtimeMs;
	let max = st.mtimeMs;
	for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
	return max;
}

const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
const stale = built === 0 || SOURCES.some((s) => newest(join(root, s)) > built);
if (stale && existsSync(vite)) {
	console.log('Building the server…');
	const run = spawnSync(process.execPath, [vite, 'build', '-c', 'vite.server.config.ts'], {
		cwd: root,
		stdio: 'inherit'
	});
	if (run.status !== 0) process.exit(run.status ?? 1);
} else if (built === 0) {
	console.error(
		'The server is not built, and this installation cannot build it (no Vite: installed with --omit=dev?). Run `npm ci && npm run build` first.'
	);
	process.exit(2);
}
await import(pathToFileURL(entry).href);
