// `npm run bench -- --only=thanks`: what thanks in chat add to a tip's finish (the proxy's
// beforeFinish and afterFinish, src/server/chat/thanker.ts, thanks switched on) with 10,000 tips
// already thanked today against an empty day, on single mode's chat file (fsynced, a temp folder)
// and hosted mode's tables (embedded PGlite, its rows vacuumed and checkpointed once the day is
// written). The two days are measured tip by tip in turn (each first every other tip), so the
// disk's and the machine's moments fall on both alike; after each finish its thanks is marked done
// (not timed), as the sender leaves it. Budget: the full day's p99 within 10% of the empty day's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { HostedKeptStore } from '../src/hosted/kept-store.ts';
import { SecretBox } from '../src/hosted/crypto.ts';
import { openDatabase } from '../src/hosted/db.ts';
import { migrate } from '../src/hosted/migrations.ts';
import { HostedPushChannel } from '../src/hosted/push-channel.ts';
import { HostedStore } from '../src/hosted/store.ts';
import { CHAT, chatFile, chatStore, type ChatStore } from '../src/server/chat/store.ts';
import { Thanker } from '../src/server/chat/thanker.ts';
import type { UpstreamClient } from '../src/server/upstream.ts';
import { BUDGETS } from './budgets.ts';
import { quantile, row, type Row } from './lib.ts';
import { moderationFile } from '../src/server/moderation/store.ts';

export interface ThanksRun {
	store: 'file' | 'pglite';
	tips: number;
	/** Per finish (ms): beforeFinish + afterFinish, on an empty day and on a day of `thanked`. */
	emptyP50Ms: number;
	emptyP99Ms: number;
	fullP50Ms: number;
	fullP99Ms: number;
	thanked: number;
}

const THANKS = { enabled: true, template: 'Thanks {name}!', burst: 'Thanks {name}!' };
/** The thanker never posts here (it is closed): the upstream is never called. */
const NO_UPSTREAM = {} as UpstreamClient;

/** One day's thanker on `store`, with `thanked` tips already thanked (done) today. */
async function day(store: ChatStore, streamer: string, thanked: number) {
	const moderation = moderationFile(null);
	const thanker = new Thanker({ store, moderation, upstreamOf: () => NO_UPSTREAM });
	await thanker.saveSettings(streamer, THANKS);
	// Closed: the thanks owed are not sent (the sender's own cost is not a finish's).
	thanker.close();
	const at = Date.now();
	for (let from = 0; from < thanked; from += 1000)
		await store.update(streamer, (s) => {
			for (let i = from; i < Math.min(thanked, from + 1000); i++)
				s.entries[`tip_done_${i}`] = { state: 'done', at, name: `Viewer ${i}`, amount: 5 };
		});
	let n = 0;
	/** One finish, timed; its thanks then marked done as the sender would (not timed). */
	const finish = async (): Promise<number> => {
		const orderId = `tip_${++n}_bench`;
		const decidedAt = new Date().toISOString();
		await moderation.decide(streamer, [
			{ orderId, outcome: 'read', rule: null, spans: [], by: 'rules', decidedAt }
		]);
		const tip = { order_id: orderId, name: `T${n}`, amount: 3, is_replay: false };
		const t0 = performance.now();
		await thanker.beforeFinish(streamer, orderId);
		await thanker.afterFinish(streamer, orderId, { success: true, tip });
		const ms = performance.now() - t0;
		await store.update(streamer, (s) => {
			const e = s.entries[orderId];
			if (e) s.entries[orderId] = { ...e, state: 'done', at: Date.now() };
		});
		return ms;
	};
	return finish;
}

/** Both days on one kind of store, measured in turn; `open` makes a store (and its streamer). */
async function compare(
	kind: ThanksRun['store'],
	open: () => Promise<{
		store: ChatStore;
		streamer: string;
		/** After the day is written: what settles it before the measuring starts. */
		settle?: () => Promise<void>;
		close: () => Promise<void>;
	}>,
	o: { tips: number; warmup: number; thanked: number }
): Promise<ThanksRun> {
	const empty = await open();
	const full = await open();
	const finishes = [
		await day(empty.store, empty.streamer, 0),
		await day(full.store, full.streamer, o.thanked)
	];
	await empty.settle?.();
	await full.settle?.();
	const times: [number[], number[]] = [[], []];
	// Each goes first every other tip: what one leaves (garbage to collect) falls on both alike.
	for (let i = 0; i < o.warmup + o.tips; i++)
		for (const d of i % 2 ? [1, 0] : [0, 1]) {
			const ms = await finishes[d]();
			if (i >= o.warmup) times[d].push(ms);
		}
	await empty.close();
	await full.close();
	return {
		store: kind,
		tips: o.tips,
		thanked: o.thanked,
		emptyP50Ms: quantile(times[0], 0.5),
		emptyP99Ms: quantile(times[0], 0.99),
		fullP50Ms: quantile(times[1], 0.5),
		fullP99Ms: quantile(times[1], 0.99)
	};
}

export async function thanksRun(o: { tips: number; warmup: number; thanked: number }) {
	const dir = mkdtempSync(join(tmpdir(), 'bench-thanks-'));
	let files = 0;
	const file = await compare(
		'file',
		async () => {
			const store = chatFile(join(dir, `chat-${++files}.json`));
			return { store, streamer: 'single', close: () => store.close() };
		},
		o
	);
	rmSync(dir, { recursive: true, force: true });
	let streamers = 0;
	const pglite = await compare(
		'pglite',
		async () => {
			const db = await openDatabase({ dataDir: null });
			await migrate(db);
			const n = ++streamers;
			const me = { tenantId: `t_${n}`, name: `Streamer ${n}`, currency: 'USD' };
			const grant = {
				refreshToken: 'rt',
				accessToken: 'at',
				expiresAt: new Date(Date.now() + 3600_000),
				scopes: 'chat:write'
			};
			const hosted = new HostedStore(db, new SecretBox('a-bench-secret-of-at-least-32-characters'));
			const streamer = (await hosted.signedIn(me, grant)).streamer.id;
			const push = new HostedPushChannel(db);
			const store = chatStore(new HostedKeptStore(CHAT, db, { push }));
			// A day's rows are written over hours, not in the second before: vacuumed, analyzed and
			// checkpointed, as a server's background work leaves them, not in the middle of the finishes.
			const settle = async () => {
				await sql`vacuum analyze`.execute(db);
				await sql`checkpoint`.execute(db);
			};
			const close = async () => (await push.close(), await db.destroy());
			return { store, streamer, settle, close };
		},
		o
	);
	return [file, pglite];
}

export function thanksRows(runs: ThanksRun[][]): Row[] {
	return runs[0].flatMap((first, i) => {
		const of = runs.map((r) => r[i]);
		const name =
			first.store === 'file' ? "single mode's chat file" : "hosted mode's tables (PGlite)";
		const thanked = first.thanked.toLocaleString('en');
		return [
			row(
				`thanks on a finish p99, empty day, ${name}`,
				'ms',
				of.map((r) => r.emptyP99Ms)
			),
			row(
				`thanks on a finish p99, ${thanked} thanked today, ${name}`,
				'ms',
				of.map((r) => r.fullP99Ms)
			),
			row(
				`thanks on a finish p99, ${thanked} thanked ÷ empty day, ${name}`,
				'×',
				of.map((r) => r.fullP99Ms / r.emptyP99Ms),
				{ max: BUDGETS.thanksFullDayP99Ratio }
			),
			row(
				`thanks on a finish p50, ${thanked} thanked today, ${name}`,
				'ms',
				of.map((r) => r.fullP50Ms)
			)
		];
	});
}
