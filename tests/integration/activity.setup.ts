// Shared by the Activity's single-mode tests (activity*.test.ts): the token endpoint with its own
// intake, a control key and the Activity on day files in a fresh folder, in front of a fresh
// simulator; the dock's requests; tips put into play on the simulator as a page would.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { FileActivityStore } from '../../src/server/activity/file-store.ts';
import { ActivityRecorder } from '../../src/server/activity/recorder.ts';
import { serveApp, type ServedApp } from '../../src/server/serve.ts';
import { checkSettings } from '../fixtures/settings.ts';
import { api, simsPerTest, until, type Sim } from '../fixtures/sim.ts';
import { simUpstream } from '../fixtures/token-endpoint.ts';

export const CONTROL_KEY = 'activity-control-key-0123456789abcdef';
const newSim = simsPerTest();
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const c of cleanup.splice(0).reverse()) await c();
});

export interface ActivityRig {
	sim: Sim;
	served: ServedApp;
	dir: string;
	recorder: ActivityRecorder;
	dock(
		method: string,
		path: string,
		body?: unknown
	): Promise<{ status: number; body: any; text: string; headers: Headers }>;
	/** Stops the server, keeping the folder (a restart reads it again). */
	stop(): Promise<void>;
}

export async function activityRig(
	o: { sim?: Sim; dir?: string; retentionDays?: number; now?: () => number } = {}
): Promise<ActivityRig> {
	const sim = o.sim ?? (await newSim({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 }));
	const dir = o.dir ?? (await mkdtemp(join(tmpdir(), 'activity-')));
	if (!o.dir) cleanup.push(() => rm(dir, { recursive: true, force: true }));
	const store = new FileActivityStore({ dir });
	const recorder = new ActivityRecorder({
		store,
		retentionDays: o.retentionDays ?? 30,
		now: o.now
	});
	const served = await serveApp({
		mode: 'demo',
		upstream: simUpstream(sim),
		overlayKey: 'activity-overlay-key-0123456789abcdef',
		controlKey: CONTROL_KEY,
		dist: '/nonexistent',
		checkSettings,
		activity: recorder
	});
	let closed = false;
	const stop = async () => {
		if (closed) return;
		closed = true;
		await served.close();
		await store.close();
	};
	cleanup.push(stop);
	const dock: ActivityRig['dock'] = async (method, path, body) => {
		const res = await fetch(served.origin + path, {
			method,
			headers: {
				'x-control-key': CONTROL_KEY,
				...(body === undefined ? {} : { 'content-type': 'application/json' })
			},
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		const text = await res.text();
		const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null;
		return { status: res.status, body: json, text, headers: res.headers };
	};
	await until(() => served.intake!.connected);
	return { sim, served, dir, recorder, dock, stop };
}

export async function tip(sim: Sim, name: string, amount = 5, message = `hello from ${name}`) {
	const res = await api(sim, 'POST', '/tips', { body: { name, amount, message, paid: true } });
	expect(res.status).toBe(201);
	return res.body.tip.order_id as string;
}

/** Plays the tip through as a consumer would: start, then finish. */
export async function play(sim: Sim, orderId: string): Promise<void> {
	expect((await api(sim, 'POST', `/tts/${orderId}/start`)).status).toBe(200);
	expect((await api(sim, 'POST', `/tts/${orderId}/finish`)).status).toBe(200);
}

/** Every entry of the list, page by page (`query` the filter). */
export async function everyEntry(r: ActivityRig, query = ''): Promise<any[]> {
	const out: any[] = [];
	let cursor: string | null = null;
	do {
		const sep = query ? '&' : '';
		const page = await r.dock(
			'GET',
			`/control/activity?limit=7${sep}${query}${cursor ? `&cursor=${cursor}` : ''}`
		);
		expect(page.status).toBe(200);
		out.push(...page.body.entries);
		cursor = page.body.next_cursor;
	} while (cursor);
	return out;
}

export const tipsOf = (entries: any[]) => entries.filter((e) => e.kind === 'tip');

/** Runs `check` until it passes (the records settle after the events), at most `ms`. */
export async function settles(check: () => Promise<unknown>, ms = 8000): Promise<void> {
	const end = Date.now() + ms;
	for (;;)
		try {
			await check();
			return;
		} catch (err) {
			if (Date.now() > end) throw err;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
}
