// What both of the page's reconnecting sockets (realtime.ts, live.ts) hand reconnecting-websocket.
import type { WebSocketConstructor } from './realtime-options.ts';

/**
 * reconnecting-websocket removes its listeners and then closes a socket that is still connecting.
 * Node's `ws` then emits 'error' on an EventEmitter with no listener, which throws; a browser
 * WebSocket only dispatches an event. A listener of our own, never removed, keeps both quiet.
 */
export function quietErrors(WS: WebSocketConstructor): WebSocketConstructor {
	if (typeof WS !== 'function') return WS; // the library reports the missing WebSocket itself
	const Quiet = class extends WS {
		constructor(url: string, protocols?: string | string[]) {
			super(url, protocols);
			this.addEventListener('error', () => {});
		}
	};
	return Quiet;
}
