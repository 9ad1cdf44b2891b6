// The /control contract (src/contract/control.ts) against the server that serves it: every route
// is named as the table names it and has its error codes written down, the server serves each
// with its method and path and nothing else under /control, and the dock's actions are the ones
// the server runs, each taking the body the contract gives it.
import { describe, expect, it } from 'vitest';
import {
	ACTION_ORDER,
	CONTROL,
	CREDENTIAL_ERRORS,
	UPSTREAM_ERRORS,
	type ActionName
} from '../../src/contract/control.ts';
import { CONTROL_ERRORS } from '../../src/contract/control-errors.ts';
import { actionBody, CONTROL_BODIES } from '../../src/contract/control-bodies.ts';
import { FileActivityStore } from '../../src/server/activity/file-store.ts';
import { ActivityRecorder } from '../../src/server/activity/recorder.ts';
import { createApp, type AppOptions } from '../../src/server/app.ts';
import { CONTROL_ACTIONS } from '../../src/server/control-actions.ts';
import { UpstreamClient } from '../../src/server/upstream.ts';

/** What the app serves under /control, as `METHOD /path` (Hono's app.routes), in either mode. */
function servedUnderControl(mode: Partial<AppOptions>): Set<string> {
	const upstream = new UpstreamClient(
		() => ({ baseUrl: 'http://127.0.0.1:9/v1', wsUrl: 'ws://127.0.0.1:9', apiKey: 'k' }),
		async () => {
			throw new Error('no upstream here');
		}
	);
	// The Activity's routes are served where a recorder is (nothing is written here).
	const store = new FileActivityStore({ dir: '/nonexistent/activity' });
	const app = createApp({
		mode: 'live',
		upstream,
		overlayKey: 'k',
		readPage: async () => null,
		activity: new ActivityRecorder({ store, retentionDays: 30 }),
		...mode
	});
	return new Set(
		app.routes
			// The control credential's check, which every route but two passes first.
			.filter((r) => r.path.startsWith('/control/') && r.path !== '/control/*')
			.map((r) => `${r.method} ${r.path}`)
	);
}

describe('the /control contract', () => {
	it('names each route as its table does, and lists the error codes of each', () => {
		for (const [name, route] of Object.entries(CONTROL)) {
			expect(route.name).toBe(name);
			expect(CONTROL_ERRORS[name as keyof typeof CONTROL]).toBeDefined();
		}
		expect(Object.keys(CONTROL_ERRORS).sort()).toEqual(Object.keys(CONTROL).sort());
		expect(Object.keys(CONTROL_BODIES).sort()).toEqual(Object.keys(CONTROL).sort());
	});

	it.each([
		['single mode', { controlKey: 'a-control-key-0123456789' }],
		['hosted mode', { resolveControl: async () => null, sessionCsrf: async () => null }]
	])('is what the server serves under /control, each route with its method (%s)', (_, mode) => {
		const served = servedUnderControl(mode);
		for (const route of Object.values(CONTROL)) {
			const path = `/control${route.path}`;
			expect(
				served.has(`${route.method} ${path}`) || served.has(`ALL ${path}`),
				`${route.name}: ${route.method} ${path}`
			).toBe(true);
		}
		const contract = new Set(Object.values(CONTROL).map((r) => `${r.method} /control${r.path}`));
		for (const entry of served) {
			const [method, path] = entry.split(' ');
			const methods = method === 'ALL' ? ['GET', 'POST', 'PUT'] : [method];
			expect(
				methods.some((m) => contract.has(`${m} ${path}`)),
				`${entry} is not in CONTROL`
			).toBe(true);
		}
	});

	it("lists a route's own codes apart from the credential's and the upstream's", () => {
		for (const [name, route] of Object.entries(CONTROL)) {
			const own = CONTROL_ERRORS[name as keyof typeof CONTROL];
			const shared: readonly string[] = [
				...(route.credential ? CREDENTIAL_ERRORS : []),
				...('upstream' in route && route.upstream ? UPSTREAM_ERRORS : [])
			];
			expect(
				own.filter((code) => shared.includes(code)),
				name
			).toEqual([]);
		}
	});

	it('has the actions the server runs, each with an order id exactly when the server needs one', () => {
		expect(Object.keys(ACTION_ORDER).sort()).toEqual(Object.keys(CONTROL_ACTIONS).sort());
		for (const [name, order] of Object.entries(ACTION_ORDER)) {
			expect(CONTROL_ACTIONS[name as ActionName].order, name).toBe(order);
			const { body } = actionBody(name as ActionName);
			expect(body.safeParse({ order_id: 'tip_1_a' }).success, name).toBe(order);
			expect(body.safeParse({}).success, name).toBe(!order);
		}
	});
});
