// The README stands alone: every link in it leads to a file (and heading) of this repository.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
const anchor = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

const anchorsOf = (markdown: string) =>
	new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1])));

describe('README links', () => {
	const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);

	it('has links, none of them to a file outside the repository or the web', () => {
		expect(links.length).toBeGreaterThan(5);
		for (const link of links) expect(link).not.toMatch(/^(https?:|\.\.\/|\/)/);
	});

	it.each(links.map((l) => [l]))('%s resolves', (link) => {
		const [path, hash] = link.split('#');
		const text = path ? readFileSync(new URL(path, root), 'utf8') : readme;
		if (path) expect(existsSync(new URL(path, root))).toBe(true);
		if (hash) expect(anchorsOf(text)).toContain(hash);
	});
});
