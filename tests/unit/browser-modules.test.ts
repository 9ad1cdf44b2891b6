/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';

// Schemas are built when a module loads. In the 'browser-zod' project `zod` is the browser bundle's
// zod/mini shim, so a chained method the shim lacks (say `.catch`) fails here, not in a streamer's
// page. Every browser-side module is loaded, the ones only a page imports included.
const modules = import.meta.glob([
	'../../src/client/**/*.ts',
	'../../src/core/**/*.ts',
	'../../src/contract/**/*.ts',
	'../../widgets/**/*.ts'
]);

describe('every browser-side module loads with the zod the pages are built with', () => {
	const paths = Object.keys(modules);

	it('finds the modules', () => {
		expect(paths.some((p) => p.includes('widgets/preview/connection'))).toBe(true);
		expect(paths.length).toBeGreaterThan(30);
	});

	it.each(paths)('%s', async (path) => {
		await expect(modules[path]!()).resolves.toBeTypeOf('object');
	});
});
