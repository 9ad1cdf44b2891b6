// The start every widget page shares: its URL parameters parsed, wrong ones shown by the widget's
// own error card (nothing connects), else an API client with the page's key and the event hub
// its widgets read, handed to the page's wiring.
import { mount, type Component } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { EventHub } from '../client/event-hub.ts';
import type { ParamResult } from '../client/params.ts';
import { connectWidgets, type PageWidget } from '../client/widget-page.ts';
import type { EventTable } from '../contract/index.ts';

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

/**
 * A page whose widget component shows one model (`model`: counters, celebration), or the URL's
 * errors (`paramErrors`): the model made from the parameters, started, fed by the page's
 * connection and exposed as `window.__tok[name]`.
 */
export function startModelPage<P extends { key: string }, M extends PageWidget & { start(): void }>(
	parse: (search: string) => ParamResult<P>,
	component: Component<{ model?: M; paramErrors?: readonly string[] | null }>,
	create: (params: P, api: ApiClient, events: EventHub) => M,
	table: EventTable,
	name: string
): void {
	startPage(
		parse,
		(target, paramErrors) => mount(component, { target, props: { paramErrors } }),
		(params, api, events, target) => {
			const model = create(params, api, events);
			model.start();
			connectWidgets(api, events, [model], table, { [name]: model });
			mount(component, { target, props: { model } });
		}
	);
}
