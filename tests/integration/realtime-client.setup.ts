// The rig of the browser-side client tests (realtime-client*.test.ts): a real simulator and the
// real token endpoint on loopback ports, with `ws` as the WebSocket, and their helpers.
import { afterEach, expect } from 'vitest';
import WebSocket from 'ws';
import { ApiClient } from '../../src/client/api.ts';
import {
	RealtimeConnection,
	type RealtimeOptions,
	type RealtimeState,
	type WebSocketConstructor
} from '../../src/client/realtime.ts';
import type { KnownEvent } from '../../src/contract/index.ts';
import { serveTokenEndpoint, type ServedEndpoint } from '../fixtures/served-endpoint.ts';
import { api, withSim, type Sim } from '../fixtures/sim.ts';
import { OVERLAY_KEY, simUpstream } from '../fixtures/token-endpoint.ts';
import type { StartOptions } from '../../src/sim/index.ts';
import { EVENT_CATALOG } from '../../src/contract/events.ts';

// Generous: a loaded 2-core machine runs these next to other suites.
export const WAIT = 10_000;

/** Fast retries so that failure paths finish within a test; the shape is what is tested. */
export const FAST = { backoff: { baseMs: 50, maxMs: 400 }, failingAfter: 3 };

export const cleanups: (() => unknown)[] = [];

afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

export interface Rig {
	sim: Sim;
	endpoint: ServedEndpoint;
	api: ApiClient;
	warnings: string[];
}

export async function rig(simOptions: StartOptions = {}, overlayKey = OVERLAY_KEY): Promise<Rig> {
	const sim = await withSim({ perKeyPerMinute: 10_000, perIpPerMinute: 10_000, ...simOptions });
	cleanups.push(() => sim.close());
	const endpoint = await serveTokenEndpoint(simUpstream(sim));
	cleanups.push(() => endpoint.close());
	const warnings: string[] = [];
	const client = new ApiClient({
		overlayKey,
		baseUrl: endpoint.origin,
		warn: (m) => warnings.push(m)
	});
	return { sim, endpoint, api: client, warnings };
}

/** A connection that records what it reports; closed after the test. */
export function connect(r: Rig, options: Partial<RealtimeOptions> = {}) {
	const events: KnownEvent[] = [];
	const states: { state: RealtimeState; detail: string }[] = [];
	let resyncs = 0;
	const conn = new RealtimeConnection({
		api: r.api,
		events: EVENT_CATALOG,
		WebSocket,
		onEvent: (e) => events.push(e),
		onResync: () => (resyncs += 1),
		onState: (state, detail) => states.push({ state, detail }),
		warn: (m) => r.warnings.push(m),
		...options
	});
	cleanups.push(() => conn.close());
	conn.start();
	return { conn, events, states, resyncs: () => resyncs };
}

/** `ws` that also records every text frame it receives, to see what the server really sent. */
export function recordingWebSocket(frames: string[]): WebSocketConstructor {
	return class extends WebSocket {
		constructor(url: string, protocols?: string | string[]) {
			super(url, protocols);
			this.on('message', (data) => frames.push(data.toString()));
		}
	};
}

export const tokenCalls = (sim: Sim) =>
	sim.control.log.requests({ method: 'POST', path: '/realtime/token' }).length;

export async function postTip(sim: Sim, name = 'Viewer'): Promise<string> {
	const res = await api(sim, 'POST', '/tips', { body: { name, amount: 5, message: 'hi' } });
	expect(res.status).toBe(201);
	return res.body.tip.order_id;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
