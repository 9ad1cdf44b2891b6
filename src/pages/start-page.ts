// The start every widget page shares: its URL parameters parsed, wrong ones shown by the widget's
// own error card (nothing connects), else an API client with the page's key and the event hub
// its widgets read, handed to the page's wiring.
import { ApiClient } from '../client/api.ts';
import { EventHub } from '../client/event-hub.ts';
import type { ParamResult } from '../client/params.ts';

export function startPage<P extends { key: string }>(
	parse: (search: string) => ParamResult<P>,
	showErrors: (target: HTMLElement, errors: string[]) => unknown,
	/** `target`: the element the widget mounts into (`#app`). */
	run: (params: P, api: ApiClient, events: EventHub, target: HTMLElement) => unknown
): void {
	const target = document.getElementById('app')!;
	const parsed = parse(location.search);
	if (!parsed.ok) showErrors(target, parsed.errors);
	else {
		const params = parsed.value;
		run(params, new ApiClient({ overlayKey: params.key }), new EventHub(), target);
	}
}
