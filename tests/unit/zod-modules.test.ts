// Every browser module that builds zod schemas loads. Schemas are built when a module loads, so in
// the 'browser-zod' project (zod/mini behind src/client/zod-browser.ts, as in the bundle) a chained
// method the shim lacks fails here even when no other test imports that module.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
	return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
		.filter((e) => e.isFile() && /\.ts$/.test(e.name))
		.map((e) => relative(root, join(e.parentPath, e.name)));
}

const modules = ['src/client', 'src/contract', 'src/core', 'widgets']
	.flatMap(sources)
	.filter((file) => /from 'zod'/.test(readFileSync(join(root, file), 'utf8')))
	.filter((file) => file !== 'src/client/zod-browser.ts');

describe('browser modules that build zod schemas', () => {
	it('are found', () => {
		expect(modules).toContain('src/contract/resources.ts');
	});
	it.each(modules)('%s loads', async (file) => {
		await expect(import(/* @vite-ignore */ join(root, file))).resolves.toBeTruthy();
	});
});
