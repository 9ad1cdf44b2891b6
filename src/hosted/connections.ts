// Each signed-in streamer's upstream client in hosted mode: the same OAuth connection the
// single-streamer server uses (oauth-client.ts: one refresh at a time, rotated token stored before
// it is used, a refresh cut short by a crash never replayed), journaled in the database instead of
// a token file. The journal's states map onto the streamer's grant row:
// - `refreshing` is written before a refresh is sent: the row's refreshing_since is set, once;
// - `connected` with a new refresh token stores it (sealed) and clears the mark;
// - `revoked` (the upstream refused the token, or the mark was found at start) drops the tokens and
//   shows the streamer Reconnect in their dashboard.
// One client per streamer, made when first needed; forget() drops it (sign-in again, Disconnect).
import { OAuthConnection } from '../server/oauth-client.ts';
import { StoreError, type GrantStore, type StoredGrant } from '../server/oauth-store.ts';
import { UpstreamClient, type Fetch } from '../server/upstream.ts';
import { BudgetedUpstreamClient, type UpstreamBudget } from '../server/upstream-budget.ts';
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
}

/** A streamer's grant row as the OAuth connection's journal. */
export class DbGrantStore implements GrantStore {
	readonly where = 'the database';
	/** The row's generation when last read or written: a write for an older one lost a race. */
	private generation = -1;
	private refreshToken: string | null = null;

	constructor(
		private readonly store: HostedStore,
		private readonly streamerId: string,
		private readonly app: { issuer: string; clientId: string }
	) {}

	async read(): Promise<StoredGrant | null> {
		const [streamer, grant] = await Promise.all([
			this.store.streamer(this.streamerId),
			this.store.grant(this.streamerId)
		]);
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
		return {
			...base,
			status: grant.refreshingSince ? 'refreshing' : 'connected',
			refresh_token: grant.refreshToken,
			reason: null
		};
	}

	async write(grant: StoredGrant): Promise<void> {
		if (grant.status === 'revoked') {
			await this.store.needsReconnect(this.streamerId);
			return;
		}
		if (grant.status === 'refreshing') {
			if (!(await this.store.markRefreshing(this.streamerId, this.generation)))
				throw new StoreError('another refresh of this streamer is under way');
			return;
		}
		if (!grant.refresh_token) return;
		if (grant.refresh_token === this.refreshToken) {
			// Not rotated (the upstream could not be reached): the same token, the mark cleared.
			await this.store.clearRefreshing(this.streamerId, this.generation);
			return;
		}
		await this.store.storeRefreshed(this.streamerId, this.generation, {
			refreshToken: grant.refresh_token,
			accessToken: '',
			expiresAt: new Date(0),
			scopes: grant.scope
		});
		this.generation += 1;
		this.refreshToken = grant.refresh_token;
	}

	/** Disconnect is the hosted app's (store.disconnect): nothing to do here. */
	async clear(): Promise<void> {}
}

export class HostedConnections {
	private readonly clients = new Map<
		string,
		{ connection: OAuthConnection; upstream: UpstreamClient }
	>();

	constructor(
		private readonly store: HostedStore,
		private readonly settings: UpstreamSettings,
		private readonly upstreamFetch: Fetch = fetch,
		/** The rate-limit budgets the streamers' calls count against (serve.ts: one per process). */
		private readonly budget: UpstreamBudget | null = null
	) {}

	/** The streamer's upstream client: their authorization only, never an API key. */
	upstream(streamerId: string): UpstreamClient {
		return this.client(streamerId).upstream;
	}

	connection(streamerId: string): OAuthConnection {
		return this.client(streamerId).connection;
	}

	/** Drops the cached client (a new sign-in replaced the grant, or Disconnect). */
	forget(streamerId: string): void {
		this.clients.delete(streamerId);
	}

	private client(streamerId: string) {
		let c = this.clients.get(streamerId);
		if (!c) {
			const s = this.settings;
			const connection = new OAuthConnection({
				issuer: s.issuer,
				clientId: s.clientId,
				clientSecret: s.clientSecret,
				redirectUri: () => s.redirectUri,
				baseUrl: s.baseUrl,
				store: new DbGrantStore(this.store, streamerId, s),
				fetch: s.fetch
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
			c = { connection, upstream };
			this.clients.set(streamerId, c);
		}
		return c;
	}
}
