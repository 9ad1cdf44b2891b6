// A widget page with `sample=1`: the real widget in a still sample for placing and theming it (the
// preview's gallery, the settings editor's live sample), from the URL alone. Decided before the
// page starts, so nothing of the live page runs: no realtime socket, no token, no /api or /settings
// read, no claim, no sound.
import { parseParams, type ParamResult } from '../client/params.ts';
import { offFlag } from '../../widgets/shared/widget-params.ts';

/**
 * With `sample=1` in the URL: the page's parameters parsed from the URL, then its sample shown (or
 * the URL's errors, with the page's own card); true when it did, and the page must not start.
 */
export function startSample<P>(
	parse: (search: string) => ParamResult<P>,
	showErrors: (target: HTMLElement, errors: string[]) => unknown,
	show: (params: P, target: HTMLElement) => unknown
): boolean {
	const asked = parseParams({ sample: offFlag }, location.search);
	if (!asked.ok || !asked.value.sample) return false;
	const target = document.getElementById('app')!;
	const parsed = parse(location.search);
	if (parsed.ok) show(parsed.value, target);
	else showErrors(target, parsed.errors);
	return true;
}
