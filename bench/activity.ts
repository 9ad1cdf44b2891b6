// `npm run bench:activity`: the Activity of one streamer with 100,000 recorded events (tips, most
// of them read, some skipped, counters), on single mode's day files and on PostgreSQL (a server of
// its own when one is installed, else PGlite): the first page (50 newest), a name search of a
// common name's start and of a name nobody has (the walk of every entry), p50 and p95 of 200 runs
// each against a budget of 200 ms p95; and the store's bytes per 1,000 events.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventUpdates } from '../src/core/activity/from-event.ts';
import { PgActivityStore } from '../src/hosted/activity-store.ts';
import { openDatabase } from '../src/hosted/db.ts';
import { migrate } from '../src/hosted/migrations.ts';
import { FileActivityStore } from '../src/server/activity/file-store.ts';
import type { ActivityStore, Heard } from '../src/server/activity/store.ts';
import { postgresMissing, startPostgres } from '../tests/integration/postgres-server.ts';
import { queueTip } from '../tests/unit/contract-examples.ts';

const EVENTS = 100_000;
const BATCH = 1_000;
const RUNS = 200;
const BUDGET_MS = 200;
const T0 = Date.parse('2026-11-01T00:00:00Z');

function tipEvent(i: number) {
	const at = new Date(T0 + i * 20_000).toISOString();
	const tip = {
		...queueTip(),
		order_id: `tip_${i}_bench`,
		name: `viewer${i % 997}`,
		amount: (i % 50) + 1,
		message: `message number ${i}, a sentence of the usual length for a tip read aloud`,
		queued_at: at
	};
	return { id: `evt_${i}_c`, type: 'tip.created', created_at: at, data: { tip } };
}

/** The events of step `i`: a counter now and then, else a tip created and then read or skipped. */
function eventsOf(i: number) {
	const at = new Date(T0 + i * 20_000).toISOString();
	if (i % 10 === 9) {
		const counter = { name: 'deaths', value: i, created_at: at, updated_at: at };
		return [
			{
				id: `evt_${i}_k`,
				type: 'counter.updated',
				created_at: at,
				data: { counter, previous: i - 1 }
			}
		];
	}
	const created = tipEvent(i);
	const order_id = created.data.tip.order_id;
	const ended =
		i % 7 === 0
			? { id: `evt_${i}_s`, type: 'queue.tts.skipped', created_at: at, data: { order_id } }
			: {
					id: `evt_${i}_f`,
					type: 'queue.tts.finished',
					created_at: at,
					data: { order_id, tip: { ...created.data.tip, played_at: at } }
				};
	return [created, ended];
}

async function fill(store: ActivityStore, streamer: string): Promise<void> {
	let batch: Heard[] = [];
	for (let i = 0, made = 0; made < EVENTS; i++)
		for (const e of eventsOf(i)) {
			const u = eventUpdates(e, 'realtime');
			if (!u.ok) throw new Error(u.error);
			batch.push({ eventId: e.id, updates: u.updates });
			made += 1;
			if (batch.length === BATCH) {
				await store.apply(streamer, batch, T0);
				batch = [];
			}
		}
	if (batch.length) await store.apply(streamer, batch, T0);
}

async function timed(label: string, run: () => Promise<unknown>): Promise<boolean> {
	for (let i = 0; i < 10; i++) await run();
	const ms: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const t = performance.now();
		JSON.stringify(await run());
		ms.push(performance.now() - t);
	}
	ms.sort((a, b) => a - b);
	const p50 = ms[Math.floor(RUNS * 0.5)];
	const p95 = ms[Math.floor(RUNS * 0.95)];
	const ok = p95 <= BUDGET_MS;
	console.log(
		`  ${label.padEnd(28)} p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms ${ok ? 'ok' : 'OVER'}`
	);
	return ok;
}

async function measure(
	name: string,
	store: ActivityStore & { bytes(): Promise<number> },
	streamer: string
) {
	const t = performance.now();
	await fill(store, streamer);
	console.log(
		`${name}: ${EVENTS} events recorded in ${((performance.now() - t) / 1000).toFixed(1)} s`
	);
	const first = await timed('first page (50)', () => store.list(streamer, { limit: 51 }));
	const common = await timed('search "viewer12" (50)', () =>
		store.list(streamer, { name: 'viewer12', limit: 51 })
	);
	const none = await timed('search "nobody" (none)', () =>
		store.list(streamer, { name: 'nobody', limit: 51 })
	);
	const bytes = await store.bytes();
	console.log(
		`  size: ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${(((bytes / EVENTS) * 1000) / 1024).toFixed(0)} KiB per 1,000 events`
	);
	return first && common && none;
}

async function main(): Promise<void> {
	const dir = await mkdtemp(join(tmpdir(), 'bench-activity-'));
	let ok = true;
	try {
		ok = (await measure('day files', new FileActivityStore({ dir }), 'single')) && ok;
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
	const missing = postgresMissing();
	const server = missing ? null : await startPostgres();
	const db = await openDatabase(server ? { databaseUrl: server.url } : { dataDir: null });
	try {
		await migrate(db);
		await db
			.insertInto('streamers')
			.values({
				id: 'bench',
				tenant_id: 't_bench',
				name: 'Bench',
				currency: 'USD',
				status: 'connected',
				updated_at: new Date()
			})
			.execute();
		ok = (await measure(server ? 'PostgreSQL' : 'PGlite', new PgActivityStore(db), 'bench')) && ok;
	} finally {
		await db.destroy();
		await server?.stop();
	}
	if (!ok) process.exitCode = 1;
}

await main();
