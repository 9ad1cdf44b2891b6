// Page weight: the gzipped JS and CSS each built page loads, read from dist/. Each HTML page's
// scripts, module preloads and stylesheets are followed through every chunk they import, static or
// dynamic (the overlay's media player is loaded on demand, but a full overlay with every widget
// needs it), so a page's weight is everything it can load.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PageWeight {
	page: string;
	/** gzip -9 bytes of its JS. */
	jsGz: number;
	cssGz: number;
	totalGz: number;
	/** Raw bytes (JS + CSS). */
	raw: number;
	files: string[];
}

const ASSET_REF = /(?:\.\/|\/assets\/|assets\/)([\w.-]+\.(?:js|css))/g;

function assetsReferenced(text: string, known: ReadonlySet<string>): string[] {
	const out: string[] = [];
	for (const m of text.matchAll(ASSET_REF)) if (known.has(m[1])) out.push(m[1]);
	return out;
}

export function pageWeights(dist: string): PageWeight[] {
	if (!existsSync(join(dist, 'assets')))
		throw new Error(`bench: no build in ${dist} (run npm run build first)`);
	const assets = new Set(readdirSync(join(dist, 'assets')));
	const gz = new Map<string, number>();
	const gzOf = (file: string) => {
		let n = gz.get(file);
		if (n === undefined) {
			n = gzipSync(readFileSync(join(dist, 'assets', file)), { level: 9 }).length;
			gz.set(file, n);
		}
		return n;
	};
	return readdirSync(dist)
		.filter((f) => f.endsWith('.html'))
		.sort()
		.map((html) => {
			const seen = new Set<string>();
			const todo = assetsReferenced(readFileSync(join(dist, html), 'utf8'), assets);
			while (todo.length) {
				const file = todo.pop()!;
				if (seen.has(file)) continue;
				seen.add(file);
				if (file.endsWith('.js'))
					todo.push(...assetsReferenced(readFileSync(join(dist, 'assets', file), 'utf8'), assets));
			}
			const files = [...seen].sort();
			const sum = (ext: string) =>
				files.filter((f) => f.endsWith(ext)).reduce((n, f) => n + gzOf(f), 0);
			const raw = files.reduce((n, f) => n + readFileSync(join(dist, 'assets', f)).length, 0);
			const jsGz = sum('.js');
			const cssGz = sum('.css');
			return { page: html.replace(/\.html$/, ''), jsGz, cssGz, totalGz: jsGz + cssGz, raw, files };
		});
}
