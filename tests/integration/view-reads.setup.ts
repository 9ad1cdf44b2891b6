// Shared by the tests of the reads the live view answers (view-reads*.test.ts): the token endpoint
// on a real port (src/server/serve.ts) in front of a fresh simulator, holding its own intake, once
// every part of its view is read; a page's read (overlay key) and the dock's (control key) of it;
// and the upstream's calls counted in the simulator's log.
import { afterEach } from 'vitest';
import { VIEW_PARTS } from '../../src/core/view/parts.ts';
import { serveApp, type ServedApp, type ServeOptions } from '../../src/server/serve.ts';
import { checkSettings } from '../fixtures/settings.ts';
import { simsPerTest, until, type Sim } from '../fixtures/sim.ts';
import { simUpstream } from '../fixtures/token-endpoint.ts';

export const OVERLAY_KEY = 'view-reads-overlay-key-0123456789';
export const CONTROL_KEY = 'view-reads-control-key-0123456789';
export const GOAL_OVERLAY = 'o_1a2b3c4d';

const start = simsPerTest();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0)) await close();
});

/** The token endpoint in front of `sim` (with the dock's control key), closed after the test. */
export async function serveOn(sim: Sim, o: Partial<ServeOptions> = {}): Promise<ServedApp> {
	const app = await serveApp({
		mode: 'demo',
		upstream: simUpstream(sim),
		overlayKey: OVERLAY_KEY,
		controlKey: CONTROL_KEY,
		dist: '/nonexistent',
		checkSettings,
		...o
	});
	closers.push(() => app.close());
	return app;
}

/** A fresh simulator and the token endpoint in front of it, once its view is sure of every part. */
export async function served(o: Partial<ServeOptions> = {}): Promise<{ sim: Sim; app: ServedApp }> {
	const sim = await start();
	const app = await serveOn(sim, o);
	const intake = app.intake!;
	await until(() => VIEW_PARTS.every((p) => intake.view.sure(p)));
	return { sim, app };
}

export interface Read {
	status: number;
	body: any;
	ticket: string | null;
	headers: Headers;
}

/** A page's read of the token endpoint (its overlay key, from this machine). */
export async function read(
	app: ServedApp,
	path: string,
	headers: Record<string, string> = {}
): Promise<Read> {
	const res = await fetch(app.origin + '/api' + path, {
		headers: { 'x-overlay-key': OVERLAY_KEY, ...headers }
	});
	const ticket = res.headers.get('x-read-ticket');
	return { status: res.status, body: await res.json(), ticket, headers: res.headers };
}

/** The dock's read (GET /control/api<path>, its control key). */
export async function dockRead(app: ServedApp, path: string): Promise<Read> {
	const res = await fetch(app.origin + '/control/api' + path, {
		headers: { 'x-control-key': CONTROL_KEY }
	});
	return { status: res.status, body: await res.json(), ticket: null, headers: res.headers };
}

/** The upstream's calls of `method path` (its query left out) in the simulator's log. */
export const upstreamCalls = (sim: Sim, method: string, path: string) =>
	sim.control.log.requests().filter((e) => e.method === method && e.path.split('?')[0] === path)
		.length;
