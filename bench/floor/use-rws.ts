// reconnecting-websocket as the realtime client uses it: one socket, created closed (the floor page
// has no server to dial).
import ReconnectingWebSocket from 'reconnecting-websocket';

export function use(): string {
	return String(
		new ReconnectingWebSocket(`ws://${location.host}/realtime`, [], { startClosed: true })
			.readyState
	);
}
