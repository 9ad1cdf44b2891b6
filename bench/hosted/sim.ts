// The hosted bench's upstream, as its own process: the simulator with N streamers (tn_bench_0 ...),
// the bench's OAuth app, and the figures the bench reads from it over IPC (requests, 429s, OAuth
// refreshes, rotated-out refresh tokens presented, revoked authorizations, tips played).
import { startSimulator } from '../../src/sim/index.ts';
import { tenantOf } from './processes.ts';

export interface SimSettings {
	streamers: number;
	perIpPerMinute: number;
	perKeyPerMinute: number;
	rateWindowMs?: number;
	redirectUris: string[];
}

export interface SimReady {
	origin: string;
	baseUrl: string;
	wsUrl: string;
	oauthUrl: string;
	clientId: string;
}

export interface SimStats {
	requests: number;
	/** 429s answered, by kind of call. */
	limited: { claims: number; others: number };
	refreshes: number;
	reuseDetected: number;
	revoked: number;
	/** Per tenant: order ids played (finished), each as often as it was finished. */
	played: Record<string, string[]>;
	/** Tips still in the queues (not played yet). */
	pending: number;
}

export type SimMessage =
	{ type: 'stats' } | { type: 'access-ttl'; seconds: number } | { type: 'tips'; tenants: string[] };

const CLAIM_PATH = /^\/(tts|media)\/[^/]+\/(start|finish|release)$/;

const settings = JSON.parse(process.env.BENCH_SIM ?? '{}') as SimSettings;
const sim = await startSimulator({
	quiet: true,
	tenants: Array.from({ length: settings.streamers }, (_, i) => ({
		id: tenantOf(i),
		name: `Bench streamer ${i}`,
		currency: 'USD',
		currency_symbol: '$',
		// Each account's three overlays, with ids of their own.
		overlayIds: [0, 1, 2].map((k) => `o_${(i * 3 + k).toString(16).padStart(8, '0')}`) as [
			string,
			string,
			string
		]
	})),
	perIpPerMinute: settings.perIpPerMinute,
	perKeyPerMinute: settings.perKeyPerMinute,
	rateWindowMs: settings.rateWindowMs,
	audioDelayMs: 20,
	audioClipMs: 200
});
const { app } = sim.control.oauth.registerApp({
	secret: null,
	redirectUris: settings.redirectUris
});

function stats(): SimStats {
	const log = sim.control.log;
	const requests = log.requests();
	const limited = requests.filter((r) => r.status === 429);
	const claims = limited.filter((r) => CLAIM_PATH.test(r.path)).length;
	const played: Record<string, string[]> = {};
	let pending = 0;
	for (let i = 0; i < settings.streamers; i++) {
		const model = sim.control.tenant(tenantOf(i));
		played[tenantOf(i)] = model.tts.history.map((t) => t.order_id);
		pending += model.tts.items.length;
	}
	return {
		requests: requests.length,
		limited: { claims, others: limited.length - claims },
		refreshes: log.oauthEntries('refresh_token').length,
		reuseDetected: log.oauthEntries('reuse_detected').length,
		revoked: log.oauthEntries('revoked').length,
		played,
		pending
	};
}

process.on('message', (m: SimMessage) => {
	if (m.type === 'stats') process.send!({ type: 'stats', stats: stats() });
	else if (m.type === 'access-ttl') {
		sim.control.oauth.accessTtlS = m.seconds;
		sim.control.oauth.tokens.expireAccessWithin(m.seconds);
		process.send!({ type: 'done' });
	} else if (m.type === 'tips') {
		for (const tenant of m.tenants)
			sim.control.createTip(
				{ name: 'Bench viewer', amount: 5, message: 'tip', paid: true },
				tenant
			);
		process.send!({ type: 'done' });
	}
});
process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
process.send!({
	type: 'ready',
	ready: {
		origin: sim.origin,
		baseUrl: sim.baseUrl,
		wsUrl: sim.wsUrl,
		oauthUrl: sim.oauthUrl,
		clientId: app.id
	} satisfies SimReady
});
