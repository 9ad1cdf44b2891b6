// Start the simulator in-process: a real HTTP + WebSocket server on loopback. Tests and `npm start`
// (demo mode) use this; `npm run sim` wraps it as a command.
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimApp } from './app.ts';
import { SimControl } from './control.ts';
import { SimCore, type SimOptions } from './core.ts';
import { RealtimeHub } from './realtime.ts';
import { DemoTraffic } from './traffic.ts';

export interface StartOptions extends SimOptions {
	/** 0 (default): an ephemeral port. */
	port?: number;
	host?: string;
	/** Demo traffic in events per minute; 0 or absent: none. */
	trafficPerMinute?: number;
}

export interface RunningSimulator {
	/** `{base_url}`, ending in /v1. */
	baseUrl: string;
	/** `{ws_url}`. */
	wsUrl: string;
	/** `{oauth_url}`. */
	oauthUrl: string;
	origin: string;
	/** The demo key with every scope. */
	apiKey: string;
	control: SimControl;
	close(): Promise<void>;
}

export async function startSimulator(options: StartOptions = {}): Promise<RunningSimulator> {
	const core = new SimCore(options);
	const control = new SimControl(core);
	const hub = new RealtimeHub(core);
	control.hub = hub;
	// A revoked OAuth authorization closes its live sockets (the upstream does so within seconds).
	core.oauth.onRevoke = (authorizationId) => hub.closeForKey(authorizationId);
	control.traffic = new DemoTraffic(core);
	const app = createSimApp(core, control);

	const host = options.host ?? '127.0.0.1';
	const server = await new Promise<Server>((resolve, reject) => {
		const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () =>
			resolve(s as Server)
		) as Server;
		s.once('error', reject);
	});
	server.on('upgrade', (req, socket, head) => hub.handleUpgrade(req, socket, head));
	const { port } = server.address() as AddressInfo;
	const shownHost = host.includes(':') ? `[${host}]` : host;
	core.origin = `http://${shownHost}:${port}`;
	if (options.trafficPerMinute) control.traffic.start(options.trafficPerMinute);

	return {
		baseUrl: `${core.origin}/v1`,
		wsUrl: `ws://${shownHost}:${port}/realtime`,
		oauthUrl: core.origin,
		origin: core.origin,
		apiKey: core.demoKey.value,
		control,
		close: async () => {
			control.traffic?.stop();
			hub.close();
			core.close();
			server.closeAllConnections?.();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	};
}

export { DEMO_TENANTS } from './model/overlays.ts';
export type { SimControl } from './control.ts';
