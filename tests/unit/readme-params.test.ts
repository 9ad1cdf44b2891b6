// The README's parameter tables are the streamer's manual: they must list what the code accepts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paramDocsMarkdown } from '../../src/client/params.ts';
import { CELEBRATION_PARAM_DOCS } from '../../widgets/celebration/params.ts';
import { COUNTERS_PARAM_DOCS } from '../../widgets/counters/params.ts';
import { MEDIA_PARAM_DOCS } from '../../widgets/media/params.ts';
import { TIP_GOAL_PARAM_DOCS } from '../../widgets/tip-goal/params.ts';
import { TTS_PARAM_DOCS } from '../../widgets/tts/params.ts';
import { RECENT_PARAM_DOCS } from '../../widgets/recent/params.ts';
import { LEADERBOARD_PARAM_DOCS } from '../../widgets/leaderboard/params.ts';

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

/** The README's text from a `## ` heading to the next one. */
const section = (heading: string) => {
	const start = readme.indexOf(`\n## ${heading}\n`);
	if (start < 0) return '';
	const end = readme.indexOf('\n## ', start + 1);
	return readme.slice(start, end < 0 ? undefined : end);
};

describe('README', () => {
	it('lists every TTS widget URL parameter exactly as the widget parses it', () => {
		const documented = rows(readme);
		for (const row of rows(paramDocsMarkdown(TTS_PARAM_DOCS))) expect(documented).toContain(row);
	});

	it('lists every media widget URL parameter in its section, as the widget parses it', () => {
		const documented = rows(section('The media widget'));
		for (const row of rows(paramDocsMarkdown(MEDIA_PARAM_DOCS))) expect(documented).toContain(row);
	});

	it('lists every counters widget URL parameter in its section, as the widget parses it', () => {
		const documented = rows(section('The counters widget'));
		for (const row of rows(paramDocsMarkdown(COUNTERS_PARAM_DOCS)))
			expect(documented).toContain(row);
	});

	it('lists every celebration widget URL parameter in its section, as the widget parses it', () => {
		const documented = rows(section('The celebration widget'));
		for (const row of rows(paramDocsMarkdown(CELEBRATION_PARAM_DOCS)))
			expect(documented).toContain(row);
	});

	it('lists every tip-goal widget URL parameter in its section, as the widget parses it', () => {
		const documented = rows(section('The tip-goal widget'));
		for (const row of rows(paramDocsMarkdown(TIP_GOAL_PARAM_DOCS)))
			expect(documented).toContain(row);
	});

	it('lists every recent-events widget URL parameter in its section, as the widget parses it', () => {
		const documented = rows(section('The recent-events widget'));
		for (const row of rows(paramDocsMarkdown(RECENT_PARAM_DOCS))) expect(documented).toContain(row);
	});

	it('lists every top-supporters widget URL parameter in its section, as the widget parses it', () => {
		const documented = rows(section('The top-supporters widget'));
		for (const row of rows(paramDocsMarkdown(LEADERBOARD_PARAM_DOCS)))
			expect(documented).toContain(row);
	});
});
