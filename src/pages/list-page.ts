// The page of a list widget (top supporters, recent events: widgets/shared/list-reads.svelte.ts):
// the URL's errors or its still sample from the URL alone, else the list read and kept by the
// page's connection, exposed as `window.__tok[kind]` (its view) and shown in its theme.
import { mount, type Component } from 'svelte';
import { startSample } from './sample-page.ts';
import { mountView, startPage } from './start-page.ts';
import type { ParamResult } from '../client/params.ts';
import { connectWidgets } from '../client/widget-page.ts';
import type { EventTable } from '../contract/index.ts';
import {
	unreadList,
	type ListDeps,
	type ListReader,
	type ListViewModel,
	type ListWidgetProps
} from '../../widgets/shared/list-reads.svelte.ts';
import type { WidgetTheme } from '../../widgets/shared/theme-params.ts';

export function startListPage<Row, P extends WidgetTheme & { key: string; limit: number }>(
	/** The stored settings' target, and the list's name in `window.__tok`. */
	kind: 'leaderboard' | 'recent',
	parse: (search: string | URLSearchParams) => ParamResult<P>,
	component: Component<ListWidgetProps<Row>>,
	/** The still sample's rows, as many as the URL's `limit` asks. */
	sample: (limit: number) => ListViewModel<Row>,
	List: new (deps: ListDeps) => ListReader<Row>,
	/** The events the list reads: any other is dropped unread. */
	table: EventTable
): void {
	const showErrors = (target: HTMLElement, paramErrors: string[]) =>
		mount(component, { target, props: { view: unreadList(), paramErrors } });
	// sample=1: a few sample rows, still: nothing connects or reads.
	const shown = startSample(parse, showErrors, (params, target) =>
		mount(component, { target, props: { view: sample(params.limit), theme: params } })
	);
	if (shown) return;
	startPage(kind, parse, showErrors, (params, api, events, target) => {
		const list = new List({ api, events, limit: params.limit, theme: params }).start();
		connectWidgets(api, events, [list], table, { [kind]: list.view });
		mountView(component, target, list);
		return list;
	});
}
