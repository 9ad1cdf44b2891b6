// Hosted mode on Node (HOSTED=1): the database (migrated at start), the sign-in, each streamer's
// upstream client, and the single-streamer app with the overlay key naming the streamer. The
// embedded simulator stands in for the upstream in the hosted demo. Instances share nothing but
// the database (docs/hosted.md); each serves /metrics and drains on close() (SIGTERM;
// docs/hosted-operations.md).
import { Hono } from 'hono';
import { sql } from 'kysely';
import type { Server, ServerResponse } from 'node:http';
import { createApp, type AppOptions } from '../server/app.ts';
import { listen, nodeAppOptions } from '../server/serve.ts';
import { keepAliveFetch, UpstreamClient } from '../server/upstream.ts';
import { withinDeadline } from '../server/deadline.ts';
import { readsShared } from '../server/read-flights.ts';
import {
	UpstreamBudget,
	type UpstreamBudgetOptions,
	type UpstreamBudgetSnapshot
} from '../server/upstream-budget.ts';
import type { ReadLimits } from '../core/read-allowance.ts';
import { DOCUMENTED_POLICY } from '../core/rate-budget.ts';
import { addressPolicy } from '../server/address-budget.ts';
import { AddressLedger } from './address-ledger.ts';
import type { HostedConfig } from './config.ts';
import { HostedConnections, type UpstreamSettings } from './connections.ts';
import { hostedControl } from './control.ts';
import { readTicketKey, SecretBox } from './crypto.ts';
import { openDatabase, poolStats, unbounded, type Db } from './db.ts';
import { HostedMetrics } from './metrics.ts';
import { migrate } from './migrations.ts';
import { startIntakes, type HostedIntakes, type HostedIntakesOptions } from './intakes.ts';
import { HostedPushChannel } from './push-channel.ts';
import { OverlayKeyCache } from './key-cache.ts';
import { MODERATION, moderationStore, type ModerationStore } from '../server/moderation/store.ts';
import type { Thanker } from '../server/chat/thanker.ts';
import type { ActivityRecorder } from '../server/activity/recorder.ts';
import {
	checkLocalAddress,
	startRecorder,
	startThanker,
	upstreamSettings
} from './instance-parts.ts';
import { hostedRoutes } from './routes.ts';
import { HostedSignIn } from './signin.ts';
import { HostedStore } from './store.ts';
import { HostedKeptStore } from './kept-store.ts';
import { SETTINGS, SettingsStore } from '../server/settings/store.ts';
import type { ActivitySink } from '../server/activity/sink.ts';
import { hostedWebhooks, signInScopes, type HostedWebhooks } from './webhooks.ts';
import { COMMANDS } from '../server/commands/store.ts';

export interface HostedServeOptions {
	config: HostedConfig;
	/** The OAuth app and upstream (live: from the config; demo: the simulator's). */
	upstream: Omit<UpstreamSettings, 'redirectUri'>;
	dist: string;
	allowedHosts?: readonly string[];
	simulatorOrigin?: string;
	/** The upstream's limits (default: the documented ones, docs/upstream.md), for tests against a simulator's. */
	budget?: UpstreamBudgetOptions;
	/** What a reader may read (default: DEFAULT_READ_LIMITS), for tests of the budget alone. */
	readLimits?: ReadLimits;
	/** Checks a save of stored settings (widgets/settings/schemas.ts); absent: saves answer 503. */
	checkSettings?: AppOptions['checkSettings'];
	/**
	 * The streamers' intakes (intakes.ts): their timings for tests; false: none, every page's read
	 * goes upstream (the endpoint bench, which measures a forwarded call).
	 */
	intakes?: Pick<HostedIntakesOptions, 'tickMs' | 'ttlMs'> | false;
	/** Tests: where the webhooks hand what they verify (absent: the Activity's recorder). */
	webhookSink?: ActivitySink;
}

export interface HostedApp {
	server: Server;
	origin: string;
	store: HostedStore;
	/** The instance's database handle (tests read its rows). */
	db: Db;
	/** The rate-limit budgets' state, for /healthz and /metrics (UpstreamBudget.budgetSnapshot). */
	budgetSnapshot(): UpstreamBudgetSnapshot;
	/**
	 * Drains: stops accepting, lets requests in flight finish (at most DRAIN_MS), waits for token
	 * refreshes holding a lock, then closes the upstream connections and the database pool.
	 */
	close(): Promise<void>;
}

/** /healthz waits this long for the database's answer, then says it is not reachable (503). */
const HEALTH_DB_DEADLINE_MS = 800;

/** How long close() lets requests in flight run before cutting their connections. */
const DRAIN_MS = 10_000;

export async function serveHosted(o: HostedServeOptions): Promise<HostedApp> {
	const { config } = o;
	const parts = await openParts(o);
	const { db, store, moderation, storedSettings, transport, metrics, budget } = parts;
	let draining = false;
	const app = createHostedApp(o, parts, () => draining);
	const { server, origin, endSockets } = await listen(
		async (req: Request, env?: unknown) => {
			const started = performance.now();
			const res = await app.fetch(req, env);
			if (req.method === 'POST' && new URL(req.url).pathname === '/token')
				metrics.minted((performance.now() - started) / 1000);
			return res;
		},
		config.host,
		config.port
	);
	const requestsDone = countRequests(server);
	let closing: Promise<void> | null = null;
	const drain = async () => {
		draining = true;
		// The leases given up at once: the other instances take the intakes over at their next tick.
		const intakesClosed = parts.intakes?.close();
		const closed = new Promise<void>((resolve) => server.close(() => resolve()));
		// The pages' push channels: each page opens its socket again, on another instance.
		endSockets();
		await requestsDone();
		// Idle keep-alive connections, and whatever outlived the deadline.
		server.closeAllConnections();
		await closed;
		await store.settled();
		await intakesClosed;
		await parts.activity.stop();
		await parts.address.close();
		transport.close();
		parts.thanker.close();
		parts.keys.close();
		// The LISTEN connection first: the embedded database's listen goes with the database.
		await moderation.close();
		await storedSettings.close();
		await parts.push.close();
		await db.destroy();
	};
	return {
		server,
		origin,
		store,
		db,
		budgetSnapshot: () => budget.budgetSnapshot(),
		close: () => (closing ??= drain())
	};
}

/** What one instance holds open: the database and its store, the upstream transport and clients. */
interface HostedParts {
	db: Db;
	store: HostedStore;
	/** The instance's push channel (one LISTEN connection): both stores below publish on it. */
	push: HostedPushChannel;
	/** The streamers' moderation rules and decisions. */
	moderation: Required<ModerationStore>;
	/** The overlay keys served from memory, told of every key turned off. */
	keys: OverlayKeyCache;
	/** The streamers' stored settings. */
	storedSettings: SettingsStore;
	/** Thanks in chat, kept state (src/server/chat/store.ts). */
	thanker: Thanker;
	transport: ReturnType<typeof keepAliveFetch>;
	settings: UpstreamSettings;
	metrics: HostedMetrics;
	budget: UpstreamBudget;
	/** The calling address's budget, kept with the other instances. */
	address: AddressLedger;
	/** The streamers' intakes held here, and the copies of the others' views (null: none). */
	intakes: HostedIntakes | null;
	/** The Activity's recorder, on the database. */
	activity: ActivityRecorder;
	connections: HostedConnections;
	signIn: HostedSignIn;
	/** The streamers' webhook endpoints and the route their deliveries reach. */
	webhooks: HostedWebhooks;
}

/** Opens the database (migrated) and builds the parts that use it and the upstream. */
async function openParts(o: HostedServeOptions): Promise<HostedParts> {
	const { config } = o;
	const localAddress = config.localAddress ?? undefined;
	if (localAddress) await checkLocalAddress(localAddress);
	const db = await openDatabase({ ...config, databaseUrl: config.databaseUrl ?? undefined });
	await unbounded(db, migrate);
	const box = new SecretBox(config.secretKey);
	const store = new HostedStore(db, box);
	const transport = keepAliveFetch({ localAddress });
	const metrics = new HostedMetrics();
	const settings = upstreamSettings(o, metrics, transport);
	// Every instance calling from this address keeps its budget with the others (address-ledger.ts).
	const address = new AddressLedger(db, addressPolicy(o.budget?.policy ?? DOCUMENTED_POLICY), {
		egress: localAddress ?? 'default'
	});
	await address.start();
	const budget = new UpstreamBudget({ ...o.budget, address });
	const connections = new HostedConnections(
		store,
		settings,
		metrics.counting('api', transport),
		metrics,
		budget
	);
	const signIn = new HostedSignIn(store, settings, signInScopes(config.publicUrl));
	const push = new HostedPushChannel(db);
	store.announceKeysWith((tx, streamerId) => push.announceKeys(streamerId, tx));
	const keys = new OverlayKeyCache((key) => store.resolveOverlayKey(key), push);
	const moderation = moderationStore(new HostedKeptStore(MODERATION, db, { push }));
	const activity = startRecorder(db, push, config);
	const thanker = startThanker(db, push, moderation, connections, activity);
	const heard = activity.heardBy.bind(activity);
	const intakes =
		o.intakes === false ? null : startIntakes(db, push, connections, { ...o.intakes, heard });
	return {
		db,
		store,
		push,
		thanker,
		moderation,
		keys,
		storedSettings: new SettingsStore(new HostedKeptStore(SETTINGS, db, { push })),
		transport,
		settings,
		metrics,
		budget,
		address,
		intakes,
		activity,
		connections,
		signIn,
		webhooks: hostedWebhooks(
			{ db, connections, intakes, metrics },
			box,
			config.publicUrl,
			o.webhookSink ?? activity
		)
	};
}

/** Hosted mode's own routes: /metrics, and the landing page, sign-in and dashboard. */
function ownRoutes(config: HostedConfig, p: HostedParts): Hono {
	const routes = new Hono();
	routes.get('/metrics', async (c) =>
		c.text(
			p.metrics.render(await streamerCounts(p.db), p.connections.active, {
				budget: p.budget.budgetSnapshot(),
				readsShared: readsShared(),
				pool: poolStats(p.db),
				locks: p.store.lockStats(),
				intakes: p.intakes?.status()
			}),
			200,
			{
				'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
				'Cache-Control': 'no-store'
			}
		)
	);
	routes.route('/', p.webhooks.routes);
	routes.route(
		'/',
		hostedRoutes({
			store: p.store,
			signIn: p.signIn,
			connections: p.connections,
			publicUrl: config.publicUrl,
			oauthOrigin: new URL(p.settings.issuer).origin,
			demo: config.mode === 'demo',
			webhooks: p.webhooks.registration
		})
	);
	return routes;
}

/**
 * The single-streamer app, with every overlay key looked up in the store to name its streamer, and
 * every control key or dashboard session naming the streamer of a dock's call.
 */
function createHostedApp(o: HostedServeOptions, p: HostedParts, draining: () => boolean) {
	const { config } = o;
	const { store, moderation, storedSettings, settings, connections, budget, db } = p;
	// Never used for a streamer's request (resolveKey names the streamer); it has no credential.
	const nobody = new UpstreamClient(
		() => ({ baseUrl: settings.baseUrl, wsUrl: settings.wsUrl, apiKey: '' }),
		p.transport
	);
	return createApp({
		mode: config.mode,
		upstream: nobody,
		// No single overlay key: every key is looked up (resolveKey).
		overlayKey: '',
		resolveKey: async (key) => {
			const found = await p.keys.resolve(key);
			if (found && 'streamerId' in found)
				return { upstream: connections.upstream(found.streamerId), streamer: found.streamerId };
			return found;
		},
		// The dock's /control calls: a control key or the dashboard's session (control.ts).
		...hostedControl({ store, connections, publicUrl: config.publicUrl }),
		// The rules and decisions, and the stored settings, in the database: the same on every
		// instance.
		moderation,
		thanker: p.thanker,
		settings: storedSettings,
		activity: p.activity,
		// Chat commands act in the instance that holds the streamer's intake.
		commands: new HostedKeptStore(COMMANDS, db, { push: p.push }),
		events: p.intakes?.events,
		upstreamOf: (streamer) => connections.upstream(streamer),
		// Counted per streamer for /metrics: whose readers are over their share.
		readRefused: (streamer, by) => p.metrics.readRefused(streamer, by),
		// A page's read the streamer's live view can answer costs the upstream nothing.
		intakeOf: p.intakes ? (streamer) => p.intakes!.intakeOf(streamer) : undefined,
		keyRefused: (answer) => p.metrics.keyRefused(answer),
		routes: ownRoutes(config, p),
		// Not ok (503) while draining or without the database: a load balancer sends no one here.
		// A database that does not answer within HEALTH_DB_DEADLINE_MS is not reachable: the monitor
		// gets its 503 at once, never a request that hangs with the database.
		health: async () => {
			const database = await withinDeadline(sql`select 1 as ok`.execute(db), HEALTH_DB_DEADLINE_MS)
				.then((r) => r.done)
				.catch(() => false);
			return {
				ok: database && !draining(),
				mode: 'hosted',
				...(draining() ? { draining: true } : {}),
				database: { reachable: database },
				...(p.intakes ? { intakes: p.intakes.status() } : {}),
				// The budgets as this instance keeps them (per IP, per authorization), not the last
				// RateLimit-* headers seen, which name whichever budget one answer was closest on.
				upstream: budget.budgetSnapshot()
			};
		},
		// The origin our pages send where the proxy reaches us under another Host.
		publicOrigin: new URL(config.publicUrl).origin,
		allowedHosts: [
			config.host.toLowerCase(),
			new URL(config.publicUrl).hostname,
			...(o.allowedHosts ?? [])
		],
		simulatorOrigin: o.simulatorOrigin,
		readLimits: o.readLimits,
		// Every instance makes and accepts the same read tickets (src/server/read-tickets.ts).
		readTicketKey: readTicketKey(config.secretKey),
		checkSettings: o.checkSettings,
		...nodeAppOptions(o.dist)
	});
}

/**
 * Counts the server's requests in flight, until their answer is written out. The function it
 * returns resolves once none is left, or after DRAIN_MS at the latest.
 */
function countRequests(server: Server): () => Promise<void> {
	let inFlight = 0;
	let idle: (() => void) | null = null;
	server.on('request', (_req, res: ServerResponse) => {
		inFlight += 1;
		res.once('close', () => {
			if (--inFlight === 0) idle?.();
		});
	});
	return async () => {
		if (inFlight > 0)
			await new Promise<void>((resolve) => {
				idle = resolve;
				setTimeout(resolve, DRAIN_MS).unref();
			});
	};
}

/** Streamers by status, deployment-wide (for /metrics). */
async function streamerCounts(db: Db): Promise<Record<string, number>> {
	const rows = await db
		.selectFrom('streamers')
		.select(['status', (eb) => eb.fn.countAll<string>().as('n')])
		.groupBy('status')
		.execute();
	return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
