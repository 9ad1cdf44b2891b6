// The simulator and token endpoint that server.test.ts and server.proxy.test.ts run against (one
// per file), and their shared helpers.
import { afterAll, afterEach, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { until, withSim, type Sim } from '../fixtures/sim.ts';
import { simUpstream, tokenEndpoint, type Endpoint } from '../fixtures/token-endpoint.ts';

export let sim: Sim;

export let endpoint: Endpoint;

export let overlayId: string;

beforeAll(async () => {
	// Generous limits: this file makes many calls; the limits themselves are tested below.
	sim = await withSim({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
	overlayId = [...sim.control.model.overlays.keys()][0];
});

afterAll(() => sim.close());

afterEach(() => sim.control.clearFaults());

export function fresh(options: Parameters<typeof tokenEndpoint>[1] = {}): Endpoint {
	endpoint = tokenEndpoint(simUpstream(sim), options);
	return endpoint;
}

/** A realtime connection opened the way a widget does it: ws_url and token from POST /token. */
export async function openRealtime(wsUrl: string, token: string) {
	const ws = new WebSocket(wsUrl);
	const messages: any[] = [];
	ws.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
	await new Promise<void>((resolve, reject) => {
		ws.once('open', () => resolve());
		ws.once('error', reject);
	});
	ws.send(JSON.stringify({ type: 'auth', data: { token } }));
	const next = async (match: (m: any) => boolean) => {
		let found: any;
		await until(() => (found = messages.find(match)) !== undefined);
		return found;
	};
	return { ws, messages, next };
}

export const RATE_LIMIT = /^\d+$/;
