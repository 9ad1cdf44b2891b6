// Builds the OAuth connection for `npm start`: in live mode from OAUTH_CLIENT_ID and TIP_OAUTH_URL
// with the token kept in OAUTH_TOKEN_FILE; in demo mode against the embedded simulator's OAuth
// server, where a demo app is registered (a public client) so that Connect can be tried without an
// account. The redirect URI names this server's port, known only once it listens.
import type { Config } from './config.ts';
import { OAuthConnection } from './oauth-client.ts';
import { FileGrantStore, MemoryGrantStore } from './oauth-store.ts';

export const DEMO_OAUTH_CLIENT_ID = 'oc_demo_overlay_kit';

/** The embedded simulator's OAuth server in demo mode (src/main.ts starts the simulator). */
export interface DemoOAuthServer {
	/** Its issuer (`{oauth_url}`). */
	oauthUrl: string;
	/** Registers a public client (no secret) with this id, unless one with the id exists. */
	registerPublicApp(app: { id: string; name: string; redirectUri: string }): void;
}

export interface OAuthSetup {
	connection: OAuthConnection;
	/** Call once the server listens: fixes the redirect URI (and registers the demo app). */
	listening(port: number): string;
}

export async function setupOAuth(
	config: Pick<Config, 'oauth' | 'oauthRedirectUri' | 'port'>,
	baseUrl: string,
	sim?: DemoOAuthServer
): Promise<OAuthSetup | null> {
	let redirectUri = config.oauthRedirectUri ?? `http://localhost:${config.port}/oauth/callback`;
	const live = config.oauth;
	if (!live && !sim) return null;
	const fileStore = live ? new FileGrantStore(live.tokenFile) : null;
	await fileStore?.lock();
	const connection = new OAuthConnection({
		issuer: live ? live.issuer : sim!.oauthUrl,
		clientId: live ? live.clientId : DEMO_OAUTH_CLIENT_ID,
		clientSecret: live?.clientSecret,
		redirectUri: () => redirectUri,
		baseUrl,
		// The simulator forgets its grants when it stops, so the demo's token lives in memory.
		store: fileStore ?? new MemoryGrantStore()
	});
	return {
		connection,
		listening(port) {
			if (!config.oauthRedirectUri) redirectUri = `http://localhost:${port}/oauth/callback`;
			fileStore?.announce(`http://localhost:${port}/`);
			sim?.registerPublicApp({
				id: DEMO_OAUTH_CLIENT_ID,
				name: 'Tip Overlay Kit',
				redirectUri
			});
			return redirectUri;
		}
	};
}
