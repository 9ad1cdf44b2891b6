// The start every widget page shares: its URL parameters parsed, wrong ones shown by the widget's
// own error card (nothing connects); else an API client with the page's key, the stored settings
// read and merged under the URL (src/client/settings.ts), and the event hub its widgets read,
// handed to the page's wiring; a refused key stops the page (refused-key.ts). Then the push channel:
// moderation's word for the widgets that obey it, and the stored settings' for every widget, which
// it hands the parameters that changed.
import { mount, type Component } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { EventHub } from '../client/event-hub.ts';
import type { ParamResult } from '../client/params.ts';
import { PageSettings, type SettingsTaker } from '../client/settings.ts';
import { connectLive, connectWidgets, type PageWidget } from '../client/widget-page.ts';
import type { EventTable, SettingsWidget } from '../contract/index.ts';
import { retryRefusedKey } from './refused-key.ts';

/**
 * The widget a page started, which follows the stored settings. A page with `sample=1` never gets
 * here: sample-page.ts shows it from its URL alone before the page would start.
 */
export type FollowingWidget<P> = PageWidget & SettingsTaker<P>;

export function startPage<P extends { key: string }>(
	/** The page's widget kind: the stored settings' target it reads. */
	kind: SettingsWidget,
	parse: (search: URLSearchParams) => ParamResult<P>,
	showErrors: (target: HTMLElement, errors: string[]) => unknown,
	/** `target`: the element the widget mounts into (`#app`). */
	run: (
		params: P,
		api: ApiClient,
		events: EventHub,
		target: HTMLElement
	) => FollowingWidget<P> | Promise<FollowingWidget<P>>,
	/**
	 * What must happen as the page loads, with the URL's parameters, before the stored settings are
	 * read (the TTS page's audio port reads the browser's autoplay verdict then, as it always did).
	 */
	early?: (own: P) => void
): void {
	void begin(kind, parse, showErrors, run, early);
}

async function begin<P extends { key: string }>(
	kind: SettingsWidget,
	parse: (search: URLSearchParams) => ParamResult<P>,
	showErrors: (target: HTMLElement, errors: string[]) => unknown,
	run: Parameters<typeof startPage<P>>[3],
	early?: (own: P) => void
): Promise<void> {
	const target = document.getElementById('app')!;
	const url = new URLSearchParams(location.search);
	const own = parse(url);
	if (!own.ok) {
		showErrors(target, own.errors);
		return;
	}
	early?.(own.value);
	const api = new ApiClient({ overlayKey: own.value.key });
	// From the first call on: a refused key stops the page, which checks it again now and then.
	retryRefusedKey(api);
	const events = new EventHub();
	const settings = new PageSettings(api, true);
	await settings.read();
	const mine = settings.widget(kind, url, parse);
	const widget = await run(mine.initial(own.value), api, events, target);
	// After run's connectWidgets, which exposes the page's handle that this adds the channel to.
	connectLive(api, events, [widget]);
	mine.bind(widget);
	settings.listen(events);
}

/**
 * A page whose widget component shows one model (`model`: counters, celebration), or the URL's
 * errors (`paramErrors`): the model made from the parameters, started, fed by the page's
 * connection and exposed as `window.__tok[name]`.
 */
export function startModelPage<
	P extends { key: string },
	M extends FollowingWidget<P> & { start(): void }
>(
	kind: SettingsWidget,
	parse: (search: URLSearchParams) => ParamResult<P>,
	component: Component<{ model?: M; paramErrors?: readonly string[] | null }>,
	create: (params: P, api: ApiClient, events: EventHub) => M,
	table: EventTable
): void {
	startPage(
		kind,
		parse,
		(target, paramErrors) => mount(component, { target, props: { paramErrors } }),
		(params, api, events, target) => {
			const model = create(params, api, events);
			model.start();
			connectWidgets(api, events, [model], table, { [kind]: model });
			mount(component, { target, props: { model } });
			return model;
		}
	);
}

/**
 * The widget showing `state.view` in `state.theme`, the theme through a getter: the markup follows
 * the stored settings.
 */
export function mountView<V, T>(
	component: Component<{ view: V; theme?: T }>,
	target: HTMLElement,
	state: { readonly view: V; readonly theme: T | undefined }
): void {
	mount(component, {
		target,
		props: {
			view: state.view,
			get theme() {
				return state.theme;
			}
		}
	});
}
