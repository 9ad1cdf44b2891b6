// What every widget page does once its widgets exist: one realtime connection feeding them all
// through the hub, its state passed to each widget, a read-only handle for tests and diagnostics,
// and a clean teardown when the page goes away.
import type { EventTable } from '../contract/index.ts';
import type { ApiClient } from './api.ts';
import type { EventHub } from './event-hub.ts';
import { RealtimeConnection, type RealtimeState } from './realtime.ts';

export interface PageWidget {
	setConnection(state: RealtimeState, detail: string): void;
	destroy(): void;
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
	const realtime = new RealtimeConnection({
		api,
		events: table,
		onEvent: (e) => events.emit(e),
		onResync: () => events.resync(),
		onState: (state, detail) => {
			for (const w of widgets) w.setConnection(state, detail);
		}
	}).start();
	api.onKeyRefused = (error) => realtime.refuse(error);
	(window as unknown as { __tok?: unknown }).__tok = { ...expose, realtime, api };
	addEventListener('pagehide', () => {
		realtime.close();
		for (const w of widgets) w.destroy();
	});
	return realtime;
}
