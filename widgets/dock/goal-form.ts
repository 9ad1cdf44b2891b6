// The dock's tip goal form (Goals.svelte): what the streamer types, checked as the upstream checks
// it (docs/upstream.md, tip goal), and the fields that changed, which are all Save sends. Dates
// show in the streamer's own time (a datetime-local input) and go out as ISO date-times. Pure.
import type { TipGoalEdit } from '../../src/contract/control-bodies.ts';
import { tipGoalFieldsShape, type TipGoal } from '../../src/contract/resources.ts';

/** The form as typed: text, as the inputs hold it. */
export interface GoalForm {
	enabled: boolean;
	title: string;
	amount: string;
	/** `YYYY-MM-DDTHH:MM` in local time, or '' for none. */
	starts: string;
	ends: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO date-time as a datetime-local input shows it (local time), or '' for none. */
export function localInput(iso: string | null): string {
	if (!iso) return '';
	const d = new Date(iso);
	if (Number.isNaN(d.getTime())) return '';
	return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local time) as an ISO date-time; '' is null; not a date: undefined. */
export function isoOf(local: string): string | null | undefined {
	if (local.trim() === '') return null;
	const d = new Date(local);
	return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export function formOf(goal: TipGoal): GoalForm {
	return {
		enabled: goal.enabled,
		title: goal.title,
		amount: String(goal.amount),
		starts: localInput(goal.starts_at),
		ends: localInput(goal.ends_at)
	};
}

/** What is wrong with each field, by the upstream's field name; empty when nothing is. */
export function formProblems(form: GoalForm): Record<string, string> {
	const problems: Record<string, string> = {};
	// The bounds are the contract's (resources.ts, the tip goal's fields), as the upstream checks them.
	if (!tipGoalFieldsShape.title.safeParse(form.title).success)
		problems.title = 'at most 80 characters';
	const amount = form.amount.trim() === '' ? NaN : Number(form.amount);
	if (!tipGoalFieldsShape.amount.safeParse(amount).success)
		problems.amount = 'a number from 0 to 1000000';
	const starts = isoOf(form.starts);
	const ends = isoOf(form.ends);
	if (starts === undefined) problems.starts_at = 'not a date and time';
	if (ends === undefined) problems.ends_at = 'not a date and time';
	if (starts && ends && ends <= starts) problems.ends_at = 'must come after the start';
	return problems;
}

/** The fields that differ from the goal as it is (a date compared to the minute the form shows). */
export function goalEdit(goal: TipGoal, form: GoalForm): TipGoalEdit {
	const edit: TipGoalEdit = {};
	const was = formOf(goal);
	if (form.enabled !== goal.enabled) edit.enabled = form.enabled;
	if (form.title !== goal.title) edit.title = form.title;
	if (Number(form.amount) !== goal.amount) edit.amount = Number(form.amount);
	if (form.starts !== was.starts) edit.starts_at = isoOf(form.starts) ?? null;
	if (form.ends !== was.ends) edit.ends_at = isoOf(form.ends) ?? null;
	return edit;
}
