// Whose bytes a page carries: the weight part's split of each page's gzipped JS between the
// libraries of the specified stack (Svelte, zod, howler, gsap, reconnecting-websocket) and our own
// code, so a budget on "our code" reads against what we wrote, not against the stack's floor.
//
// How: the product is built once more into a temporary folder (the same vite.config.ts, about 5 s)
// with a plugin that records, for each output chunk, the rendered code of every module grouped by
// the npm package it comes from. A page's JS gzip size is then split in proportion to each group's
// own gzip size (minification and the chunk's shared gzip window act on every group alike). CSS is
// ours (component styles). dist/ is left alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { pageWeights, type PageWeight } from './weight.ts';

/** The groups we name; any other package is 'other packages'. */
export const LIBRARIES = ['svelte', 'zod', 'howler', 'gsap', 'reconnecting-websocket'] as const;
export type Group = (typeof LIBRARIES)[number] | 'ours' | 'other packages';

/** Packages that come with a library (Svelte's runtime helpers) count as that library. */
const BELONGS_TO: Record<string, (typeof LIBRARIES)[number]> = {
	'esm-env': 'svelte',
	clsx: 'svelte'
};

export interface PageShares extends PageWeight {
	/** Gzip bytes of the page's JS + CSS per group (JS split in proportion; CSS is ours). */
	shares: Record<Group, number>;
}

function groupOf(id: string): Group {
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id.replace(/\\/g, '/'));
	if (!m) return 'ours';
	const pkg = m[1];
	if ((LIBRARIES as readonly string[]).includes(pkg)) return pkg as Group;
	return BELONGS_TO[pkg] ?? 'other packages';
}

function recorder(into: Map<string, Map<Group, string>>): Plugin {
	return {
		name: 'bench-module-shares',
		generateBundle(_options, bundle) {
			for (const chunk of Object.values(bundle)) {
				if (chunk.type !== 'chunk') continue;
				const groups = new Map<Group, string>();
				for (const [id, mod] of Object.entries(chunk.modules)) {
					const group = groupOf(id);
					groups.set(group, (groups.get(group) ?? '') + (mod.code ?? ''));
				}
				into.set(chunk.fileName.replace(/^assets\//, ''), groups);
			}
		}
	};
}

/** Builds the product into a temporary folder and splits each page's weight by group. */
export async function pageShares(): Promise<PageShares[]> {
	const { createBuilder } = await import('vite');
	const root = fileURLToPath(new URL('..', import.meta.url));
	const out = mkdtempSync(join(tmpdir(), 'bench-shares-'));
	const code = new Map<string, Map<Group, string>>();
	try {
		const builder = await createBuilder({
			configFile: join(root, 'vite.config.ts'),
			// 'error': vite warns that a folder outside the project is not emptied (it is new).
			logLevel: 'error',
			plugins: [recorder(code)],
			build: { outDir: out },
			builder: {
				// The config's own buildApp empties dist/; this one builds every page into `out`.
				async buildApp(b) {
					for (const env of Object.values(b.environments)) {
						if (env.config.consumer !== 'client') continue;
						env.config.build.outDir = out;
						env.config.build.copyPublicDir = false;
						await b.build(env);
					}
				}
			}
		});
		await builder.buildApp();
		return pageWeights(out).map((w) => {
			const byGroup = new Map<Group, string>();
			for (const file of w.files)
				for (const [group, text] of code.get(file) ?? [])
					byGroup.set(group, (byGroup.get(group) ?? '') + text);
			const gz = new Map([...byGroup].map(([g, text]) => [g, gzipSync(text, { level: 9 }).length]));
			const sum = [...gz.values()].reduce((a, b) => a + b, 0) || 1;
			const shares = Object.fromEntries(
				[...LIBRARIES, 'ours', 'other packages'].map((g) => [g, 0])
			) as Record<Group, number>;
			for (const [g, n] of gz) shares[g] = Math.round((w.jsGz * n) / sum);
			shares.ours += w.cssGz;
			return { ...w, shares };
		});
	} finally {
		rmSync(out, { recursive: true, force: true });
	}
}
