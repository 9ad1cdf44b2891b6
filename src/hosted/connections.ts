// Each signed-in streamer's upstream client in hosted mode: the same OAuth connection the
// single-streamer server uses (oauth-tokens.ts: one refresh at a time, rotated token stored before
// it is used, a refresh cut short by a crash never replayed), with the grant it would keep in a
// token file kept in the streamer's grant row instead (`DbGrantStore`). The grant's states map
// onto the row:
// - `refreshing` is written before a refresh is sent: the row's refreshing_since is set, once;
// - `connected` with a new refresh token stores it (sealed) and clears the mark;
// - `revoked` (the upstream refused the token, or the mark was found at start) drops the tokens and
//   shows the streamer Reconnect in their dashboard.
// Several instances share each row (docs/hosted.md): a refresh runs under the streamer's lock
// (locks.ts) and first reads the row again, so it uses another instance's fresh access token
// instead of refreshing twice, and takes a mark it finds there for what it is: a dead holder's.
// One client per streamer, made when first needed; forget() drops it (sign-in again, Disconnect),
// and one whose authorization ended is made again on its next use (another instance may have
// signed the streamer in again).
import { OAuthConnection } from '../server/oauth-client.ts';
import type { AccessToken } from '../server/oauth-store.ts';
import { discoveryOnce } from '../server/oauth-http.ts';
import type { AuthorizationServer } from 'oauth4webapi';
import {
	StoreError,
	type GrantStore,
	type SharedGrant,
	type StoredGrant
} from '../server/oauth-store.ts';
import { UpstreamClient, type Fetch } from '../server/upstream.ts';
import { BudgetedUpstreamClient, type UpstreamBudget } from '../server/upstream-budget.ts';
import type { HostedMetrics } from './metrics.ts';
import type { HostedStore } from './store.ts';

export interface UpstreamSettings {
	/** `{oauth_url}`. */
	issuer: string;
	clientId: string;
	clientSecret?: string;
	/** `{base_url}` and `{ws_url}`. */
	baseUrl: string;
	wsUrl: string;
	/** The hosted sign-in's callback (PUBLIC_URL + /auth/callback). */
	redirectUri: string;
	fetch?: Fetch;
	/**
	 * The upstream's discovery metadata, fetched once for the instance's sign-ins and streamers
	 * (serve.ts sets it); absent: each HostedConnections and HostedSignIn makes its own.
	 */
	server?: () => Promise<AuthorizationServer>;
}

/** A streamer's grant row, as the store of their OAuth connection's grant (GrantStore). */
export class DbGrantStore implements GrantStore {
	readonly where = 'the database';
	/** The row's generation when last read or written: a write for an older one lost a race. */
	private generation = -1;
	private refreshToken: string | null = null;
	private stored: AccessToken | null = null;
	/** The store to use: the lock's connection while a refresh holds the lock. */
	private active: HostedStore;
	/** The last read or write said the authorization ended (or there is none). */
	ended = false;
	readonly shared: SharedGrant = {
		exclusive: (fn, checkStored, due) =>
			this.store.refreshLock(
				this.streamerId,
				async (locked) => {
					this.active = locked;
					try {
						return await fn();
					} finally {
						this.active = this.store;
					}
				},
				checkStored,
				due
			),
		// Another instance's stored token was used instead of a refresh of our own.
		adopted: () => this.metrics?.refreshed('adopted'),
		access: () => this.stored
	};

	constructor(
		private readonly store: HostedStore,
		private readonly streamerId: string,
		private readonly app: { issuer: string; clientId: string },
		private readonly metrics?: HostedMetrics
	) {
		this.active = store;
	}

	async read(): Promise<StoredGrant | null> {
		const grant = await this.readGrant();
		this.ended = !grant || grant.status === 'revoked';
		return grant;
	}

	private async readGrant(): Promise<StoredGrant | null> {
		const { streamer, grant } = await this.active.streamerAndGrant(this.streamerId);
		if (!streamer) return null;
		const base = {
			version: 1 as const,
			issuer: this.app.issuer,
			client_id: this.app.clientId,
			scope: grant?.scopes ?? '',
			tenant: streamer.name,
			authorization_id: null,
			updated_at: new Date().toISOString()
		};
		if (!grant)
			return streamer.status === 'reconnect'
				? {
						...base,
						status: 'revoked',
						refresh_token: null,
						reason: 'the authorization ended: sign in again'
					}
				: null;
		this.generation = grant.generation;
		this.refreshToken = grant.refreshToken;
		this.stored = grant.accessToken
			? {
					token: grant.accessToken,
					refreshAt: (grant.refreshAt ?? grant.expiresAt).getTime(),
					expiresAt: grant.expiresAt.getTime()
				}
			: null;
		return {
			...base,
			status: grant.refreshingSince ? 'refreshing' : 'connected',
			refresh_token: grant.refreshToken,
			reason: null
		};
	}

	async write(grant: StoredGrant, access?: AccessToken): Promise<void> {
		if (grant.status === 'revoked') {
			await this.active.needsReconnect(this.streamerId);
			this.ended = true;
			this.stored = null;
			this.metrics?.refreshed('ended');
			return;
		}
		if (grant.status === 'refreshing') {
			if (!(await this.active.markRefreshing(this.streamerId, this.generation)))
				throw new StoreError('another refresh of this streamer is under way');
			return;
		}
		if (!grant.refresh_token) return;
		if (grant.refresh_token === this.refreshToken && !access) {
			// Not rotated (the upstream could not be reached): the same token, the mark cleared.
			await this.active.clearRefreshing(this.streamerId, this.generation);
			this.metrics?.refreshed('not_rotated');
			return;
		}
		// Rotated (or, if the upstream kept it, the same token with a new access token).
		const rotated = {
			refreshToken: grant.refresh_token,
			accessToken: access?.token ?? '',
			expiresAt: new Date(access?.expiresAt ?? 0),
			refreshAt: new Date(access?.refreshAt ?? 0),
			scopes: grant.scope
		};
		const stored = await this.active
			.storeRefreshed(this.streamerId, this.generation, rotated)
			.catch((err: unknown) => {
				// The lock's connection broke while the upstream rotated the token (PostgreSQL
				// restarted, the connection was ended): the new token is only in memory now. The
				// write is conditional on the row's generation, so it is safe without the lock: it
				// goes through the query pool, and fails (the streamer reconnects) if the row
				// moved on meanwhile.
				if (this.active === this.store) throw err;
				return this.store.storeRefreshed(this.streamerId, this.generation, rotated);
			});
		// Not stored, so never used: the streamer reconnects (the row says why).
		if (!stored) throw new StoreError('the authorization changed during the refresh');
		this.generation += 1;
		this.refreshToken = grant.refresh_token;
		this.stored = access ?? null;
		this.metrics?.refreshed('rotated');
	}

	/** Disconnect: tokens deleted, overlay key turned off (before the upstream is told). */
	async clear(): Promise<void> {
		await this.active.disconnect(this.streamerId);
		this.ended = true;
	}
}

export class HostedConnections {
	private readonly clients = new Map<
		string,
		{ connection: OAuthConnection; upstream: UpstreamClient; grants: DbGrantStore }
	>();
	/** The OAuth server's metadata, discovered once for every streamer of this instance. */
	private readonly discovery: () => Promise<AuthorizationServer>;

	constructor(
		private readonly store: HostedStore,
		private readonly settings: UpstreamSettings,
		private readonly upstreamFetch: Fetch = fetch,
		private readonly metrics?: HostedMetrics,
		/** The rate-limit budgets the streamers' calls count against (serve.ts: one per process). */
		private readonly budget: UpstreamBudget | null = null
	) {
		this.discovery = settings.server ?? discoveryOnce(settings.issuer, settings.fetch);
	}

	/** Streamers this instance has a client for. */
	get active(): number {
		return this.clients.size;
	}

	/** The streamer's upstream client: their authorization only, never an API key. */
	upstream(streamerId: string): UpstreamClient {
		return this.client(streamerId).upstream;
	}

	connection(streamerId: string): OAuthConnection {
		return this.client(streamerId).connection;
	}

	/**
	 * Disconnect, under the streamer's refresh lock with the grant read afresh (no refresh of any
	 * instance can rotate it meanwhile): forgotten here, then revoked upstream (best effort).
	 */
	async disconnect(streamerId: string): Promise<void> {
		this.forget(streamerId);
		const { connection, grants } = this.client(streamerId);
		await grants.shared.exclusive(() => connection.disconnect());
		this.forget(streamerId);
	}

	/** Drops the cached client (a new sign-in replaced the grant). */
	forget(streamerId: string): void {
		this.clients.delete(streamerId);
	}

	private client(streamerId: string) {
		let c = this.clients.get(streamerId);
		// Ended here, maybe signed in again on another instance: read again from the database.
		if (!c || c.grants.ended) {
			const s = this.settings;
			const grants = new DbGrantStore(this.store, streamerId, s, this.metrics);
			const connection = new OAuthConnection({
				issuer: s.issuer,
				clientId: s.clientId,
				clientSecret: s.clientSecret,
				redirectUri: () => s.redirectUri,
				baseUrl: s.baseUrl,
				store: grants,
				fetch: s.fetch,
				server: this.discovery
			});
			const client = [
				() => ({ baseUrl: s.baseUrl, wsUrl: s.wsUrl, apiKey: '' }),
				this.upstreamFetch,
				10_000,
				connection
			] as const;
			// One authorization per streamer: their id names its budget.
			const upstream = this.budget
				? new BudgetedUpstreamClient(this.budget, streamerId, ...client)
				: new UpstreamClient(...client);
			c = { connection, upstream, grants };
			this.clients.set(streamerId, c);
		}
		return c;
	}
}
