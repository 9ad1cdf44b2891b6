// Export CSV of the Activity (docs/activity.md): one row per entry, RFC 4180 (CRLF line ends, a
// field with a comma, a quote or a line end quoted, quotes doubled), and a text cell that starts
// with = + - @ (or a tab or a carriage return) given a leading apostrophe, so that a spreadsheet
// never reads viewer text as a formula.
import type { ActivityEntry } from '../../contract/activity.ts';

const HEADER = [
	'at',
	'kind',
	'name',
	'amount',
	'message',
	'outcome',
	'moderation',
	'detail',
	'via'
];
const FORMULA = /^[=+\-@\t\r]/;
const QUOTED = /[",\r\n]/;

/** One cell: a number as it is, text neutralised and quoted as needed. */
export function csvCell(value: string | number | null): string {
	if (value === null) return '';
	if (typeof value === 'number') return String(value);
	const text = FORMULA.test(value) ? `'${value}` : value;
	return QUOTED.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function activityCsv(entries: readonly ActivityEntry[]): string {
	const rows = [HEADER.join(',')];
	for (const e of entries) rows.push(row(e).map(csvCell).join(','));
	return rows.join('\r\n') + '\r\n';
}

function row(e: ActivityEntry): (string | number | null)[] {
	const [name, amount, message, outcome, moderation, detail] = fields(e);
	return [e.at, e.kind, name, amount, message, outcome, moderation, detail, e.via];
}

type Fields = [
	string | null,
	number | null,
	string | null,
	string | null,
	string | null,
	string | null
];

function fields(e: ActivityEntry): Fields {
	switch (e.kind) {
		case 'tip':
			return [e.name, e.amount, e.message, e.outcome, e.moderation?.outcome ?? null, e.order_id];
		case 'video':
			return [e.name, null, e.title, e.outcome, e.moderation?.outcome ?? null, e.url];
		case 'counter':
			return [e.name, e.value, null, null, null, e.previous === null ? null : `from ${e.previous}`];
		case 'goal':
			return [e.title, e.current, null, null, null, e.overlay_id];
		case 'tipping':
			return [null, null, null, e.accepting ? 'opened' : 'closed', null, null];
		case 'queue':
			return [null, null, null, e.change, null, e.queue];
		case 'thanks':
			return [e.name, null, e.text, null, null, e.order_id];
		case 'command':
			return [e.name, null, e.args, null, null, `!${e.trigger}`];
		case 'celebration':
		case 'overlay':
			return [null, null, null, null, null, e.overlay_id];
		default:
			return [null, null, null, null, null, e.type];
	}
}
