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

/** Parameters every widget takes, documented once in the README's shared table. */
const SHARED = ['key', 'font', 'color', 'accent', 'scale'];

/** The first three cells (name, values, default) of a table row. */
const head = (row: string) => row.split(' | ').slice(0, 3).join(' | ');

/**
 * `position` is documented once too, its default per widget in its default cell
 * ("per widget: TTS top, media center, ...").
 */
function expectPosition(widget: string, row: string, shared: string[]): void {
	const [name, values, fallback] = row.split(' | ');
	const documented = shared.find((r) => r.startsWith(`${name} | ${values} | `));
	expect(documented, 'the shared table lists position with its values').toBeDefined();
	expect(documented!.split(' | ')[2]).toMatch(new RegExp(`[:,] ${widget} ${fallback}(,|$)`));
}

function expectDocumented(
	heading: string,
	widget: string,
	docs: Parameters<typeof paramDocsMarkdown>[0]
): void {
	const own = rows(section(heading));
	const shared = rows(section('Parameters every widget takes'));
	expect(own.length).toBeGreaterThan(0);
	for (const doc of docs) {
		const row = rows(paramDocsMarkdown([doc])).at(-1)!;
		// A shared parameter: same name, values and default in the shared table (its wording there
		// is general); any other: the widget's own row, word for word.
		if (doc.name === 'position') expectPosition(widget, row, shared);
		else if (SHARED.includes(doc.name)) expect(shared.map(head)).toContain(head(row));
		else expect(own).toContain(row);
	}
}

describe('README', () => {
	it.each([
		['The TTS widget', 'TTS', TTS_PARAM_DOCS],
		['The media widget', 'media', MEDIA_PARAM_DOCS],
		['The counters widget', 'counters', COUNTERS_PARAM_DOCS],
		['The celebration widget', 'celebration', CELEBRATION_PARAM_DOCS],
		['The tip-goal widget', 'tip goal', TIP_GOAL_PARAM_DOCS],
		['The recent-events widget', 'recent events', RECENT_PARAM_DOCS],
		['The top-supporters widget', 'top supporters', LEADERBOARD_PARAM_DOCS]
	] as const)(
		'"%s" documents every URL parameter as the widget parses it',
		(heading, widget, docs) => {
			expectDocumented(heading, widget, docs);
		}
	);
});
