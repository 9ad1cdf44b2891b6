// Every browser module that builds zod schemas loads: schemas built when a module loads fail here
// even when no other test imports that module. The browser runs zod/mini, never zod classic.
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
	.filter((file) => /from 'zod(\/mini)?'/.test(readFileSync(join(root, file), 'utf8')));

describe('browser modules that build zod schemas', () => {
	it('are found', () => {
		expect(modules).toContain('src/contract/resources.ts');
	});
	it.each(modules)('%s imports zod/mini', (file) => {
		expect(readFileSync(join(root, file), 'utf8')).not.toMatch(/from 'zod'/);
	});
	it.each(modules)('%s loads', async (file) => {
		await expect(import(/* @vite-ignore */ join(root, file))).resolves.toBeTruthy();
	});
});
