// Lets Node run the widgets' rune modules (`*.svelte.ts`, e.g. widgets/tts/tts-player.svelte.ts)
// as Vite does for the pages: TypeScript stripped by esbuild, then Svelte's compileModule. It
// compiles for the server, where `$state(v)` is the plain value: the bench's sources render
// nothing, they only need the widget's logic. Loaded with `--import` after tsx.
import { readFile } from 'node:fs/promises';
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

export async function load(url, context, next) {
	if (!url.startsWith('file:') || !/\.svelte\.ts$/.test(new URL(url).pathname))
		return next(url, context);
	const [{ transform }, { compileModule }] = await Promise.all([
		import('esbuild'),
		import('svelte/compiler')
	]);
	const filename = fileURLToPath(url);
	const ts = await readFile(filename, 'utf8');
	const { code } = await transform(ts, { loader: 'ts', format: 'esm', target: 'es2022' });
	const compiled = compileModule(code, { filename, generate: 'server' });
	return { format: 'module', source: compiled.js.code, shortCircuit: true };
}
