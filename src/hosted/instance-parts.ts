// Parts of a hosted instance that serve.ts builds at start, kept apart for its length: the
// upstream as the instance reaches it, the thanks in chat, the Activity's recorder, and the check
// of UPSTREAM_LOCAL_ADDRESS.
import { createServer } from 'node:net';
import { ActivityRecorder } from '../server/activity/recorder.ts';
import { DEFAULT_RETENTION_DAYS } from '../server/activity/store.ts';
import { CHAT, chatStore } from '../server/chat/store.ts';
import { Thanker } from '../server/chat/thanker.ts';
import type { ModerationStore } from '../server/moderation/store.ts';
import { discoveryOnce } from '../server/oauth-http.ts';
import type { Fetch } from '../server/upstream.ts';
import { PgActivityStore } from './activity-store.ts';
import type { HostedConfig } from './config.ts';
import type { HostedConnections, UpstreamSettings } from './connections.ts';
import type { Db } from './db.ts';
import { HostedKeptStore } from './kept-store.ts';
import type { HostedMetrics } from './metrics.ts';
import type { HostedPushChannel } from './push-channel.ts';

/** How often an instance looks for thanks another instance left owed when it stopped. */
const CHAT_SWEEP_MS = 30_000;

/** The upstream as the instance reaches it, OAuth included. */
export function upstreamSettings(
	o: { upstream: Omit<UpstreamSettings, 'redirectUri'>; config: Pick<HostedConfig, 'publicUrl'> },
	metrics: HostedMetrics,
	transport: Fetch
): UpstreamSettings {
	// Every call to the upstream, OAuth included, takes the transport: it leaves from
	// UPSTREAM_LOCAL_ADDRESS and shares its bounded connections (unless a test gives its own fetch).
	const fetch = metrics.counting('oauth', o.upstream.fetch ?? transport);
	// One discovery for the instance: its sign-ins and its streamers' refreshes share it.
	const server = discoveryOnce(o.upstream.issuer, fetch);
	return { ...o.upstream, redirectUri: `${o.config.publicUrl}/auth/callback`, fetch, server };
}

/** Thanks in chat, kept state; started (it sweeps for thanks owed by an instance that stopped). */
export function startThanker(
	db: Db,
	push: HostedPushChannel,
	moderation: Required<ModerationStore>,
	connections: HostedConnections,
	activity: ActivityRecorder
): Thanker {
	const thanker = new Thanker({
		store: chatStore(new HostedKeptStore(CHAT, db, { push })),
		moderation,
		upstreamOf: (streamer) => connections.upstream(streamer),
		posted: (streamer, sent) => void activity.thanked(streamer, sent)
	});
	// Thanks owed by an instance that stopped go out from another: at start and now and then.
	thanker.start(CHAT_SWEEP_MS);
	return thanker;
}

/** The Activity's recorder on PostgreSQL, pruning. */
export function startRecorder(
	db: Db,
	push: HostedPushChannel,
	config: Pick<HostedConfig, 'activityRetentionDays'>
): ActivityRecorder {
	const activity = new ActivityRecorder({
		store: new PgActivityStore(db),
		retentionDays: config.activityRetentionDays ?? DEFAULT_RETENTION_DAYS,
		// NOTIFY on its own: the docks of every instance hear it.
		publish: (streamer, message) => push.publish(streamer, message, db)
	});
	activity.startPruning();
	return activity;
}

/** UPSTREAM_LOCAL_ADDRESS must be this machine's: else every upstream call would fail. */
export async function checkLocalAddress(address: string): Promise<void> {
	const probe = createServer();
	await new Promise<void>((resolve, reject) => {
		probe.once('error', (err: NodeJS.ErrnoException) =>
			reject(
				new Error(
					`UPSTREAM_LOCAL_ADDRESS: ${address} is not an address of this machine (${err.code ?? err.message})`
				)
			)
		);
		probe.listen(0, address, () => probe.close(() => resolve()));
	});
}
