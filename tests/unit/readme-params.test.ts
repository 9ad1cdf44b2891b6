// The README's parameter tables are the streamer's manual: they must list what the code accepts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paramDocsMarkdown } from '../../src/client/params.ts';
import { TTS_PARAM_DOCS } from '../../widgets/tts/params.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Table rows as trimmed cells, so Prettier's column padding does not matter. */
const rows = (markdown: string) =>
	markdown
		.split('\n')
		.filter((line) => line.trim().startsWith('|') && !/^\|\s*-/.test(line.trim()))
		.map((line) =>
			line
				.trim()
				.replace(/^\||\|$/g, '')
				.split(/(?<!\\)\|/)
				.map((cell) => cell.trim())
				.join(' | ')
		);

describe('README', () => {
	it('lists every TTS widget URL parameter exactly as the widget parses it', () => {
		const documented = rows(readme);
		for (const row of rows(paramDocsMarkdown(TTS_PARAM_DOCS))) expect(documented).toContain(row);
	});
});
