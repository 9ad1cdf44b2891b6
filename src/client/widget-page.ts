// What every widget page does once its widgets exist: one realtime connection feeding them all
// through the hub, its state passed to each widget, a read-only handle for tests and diagnostics,
// and a clean teardown when the page goes away. Every page also opens the token endpoint's push
// channel, once for all its widgets: the moderation decisions (TTS, recent) and the stored settings.
import type { EventTable } from '../contract/index.ts';
import type { ApiClient } from './api.ts';
import type { EventHub } from './event-hub.ts';
import { LiveChannel, type LiveState } from './live.ts';
import { RealtimeConnection, type RealtimeState } from './realtime.ts';
import type { RealtimeOptions } from './realtime-options.ts';

export interface PageWidget {
	setConnection(state: RealtimeState, detail: string): void;
	/** The push channel's state (debug panels), on pages that open it. */
	setLive?(state: LiveState, detail: string): void;
	destroy(): void;
}

/**
 * The page's realtime connection, wired to its widgets: events and resyncs through the hub, the
 * connection's state to each widget, a refused key stops it. No DOM: the hosted bench runs the same
 * wiring in Node (with `ws` as `WebSocket`).
 */
export function openWidgetConnection(
	api: ApiClient,
	events: EventHub,
	widgets: readonly PageWidget[],
	/** The events these widgets read: the contract's groups (TTS_EVENTS, ...). */
	table: EventTable,
	extra: Pick<Partial<RealtimeOptions>, 'WebSocket' | 'warn'> = {}
): RealtimeConnection {
	const realtime = new RealtimeConnection({
		api,
		events: table,
		onEvent: (e) => events.emit(e),
		onResync: () => events.resync(),
		onState: (state, detail) => {
			for (const w of widgets) w.setConnection(state, detail);
		},
		...extra
	}).start();
	api.onKeyRefused((refusal) => realtime.refuse(refusal.error));
	return realtime;
}

export function connectWidgets(
	api: ApiClient,
	events: EventHub,
	widgets: readonly PageWidget[],
	/** The events these widgets read: the contract's groups (TTS_EVENTS, ...). */
	table: EventTable,
	/** Exposed as `window.__tok` (read-only views for tests and the preview's diagnostics). */
	expose: Record<string, unknown> = {}
): RealtimeConnection {
	const realtime = openWidgetConnection(api, events, widgets, table);
	(window as unknown as { __tok?: unknown }).__tok = { ...expose, realtime, api };
	addEventListener('pagehide', () => {
		realtime.close();
		for (const w of widgets) w.destroy();
	});
	return realtime;
}

/**
 * The page's push channel (after connectWidgets): its messages through the hub (the widgets that
 * obey moderation decisions, the stored settings' reader), its state to each widget, closed when
 * the page goes away. A separate call, so that a page that never connects (a still sample) does not
 * carry the reader.
 */
export function connectLive(
	api: ApiClient,
	events: EventHub,
	widgets: readonly PageWidget[]
): LiveChannel {
	const live = new LiveChannel({
		api,
		onMessage: (m) => events.live(m),
		onState: (state, detail) => {
			for (const w of widgets) w.setLive?.(state, detail);
		}
	}).start();
	const tok = (window as unknown as { __tok?: Record<string, unknown> }).__tok;
	if (tok) tok.live = live;
	addEventListener('pagehide', () => live.close());
	return live;
}
