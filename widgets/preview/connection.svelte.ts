// The preview's OAuth panel state (README, Connect with OAuth): whether the token endpoint is
// connected to the upstream with OAuth, as whom, and why not (denied, refused redirect URI, revoked).
// It reads GET /oauth/status when the page opens and when the realtime connection changes state
// (never on a timer); Connect sends the browser to the upstream's consent page.
import { z } from 'zod';

const Status = z.looseObject({
	state: z.enum(['disconnected', 'connected', 'revoked']),
	tenant: z.string().nullable().catch(null),
	scopes: z.array(z.string()).catch([]),
	reason: z.string().nullable().catch(null),
	using: z.enum(['oauth', 'api_key', 'none']).catch('none'),
	last_error: z.looseObject({ code: z.string(), message: z.string() }).nullable().catch(null)
});
export type OAuthStatus = z.infer<typeof Status>;

export class OAuthPanel {
	/** null: this server does not offer OAuth (no /oauth routes) or has not answered yet. */
	status = $state<OAuthStatus | null>(null);
	busy = $state(false);
	/** What the last button press led to, when it did not leave the page. */
	message = $state('');

	constructor(private readonly key: () => string) {}

	async load(): Promise<void> {
		const res = await this.call('GET', '/oauth/status');
		if (!res?.ok) return;
		const parsed = Status.safeParse(await res.json().catch(() => null));
		if (parsed.success) this.status = parsed.data;
	}

	async connect(): Promise<void> {
		this.busy = true;
		this.message = '';
		const res = await this.call('POST', '/oauth/connect');
		const body = (await res?.json().catch(() => null)) as {
			authorize_url?: unknown;
			error?: unknown;
		} | null;
		if (res?.ok && typeof body?.authorize_url === 'string' && /^https?:/.test(body.authorize_url)) {
			location.assign(body.authorize_url);
			return;
		}
		this.busy = false;
		this.message =
			typeof body?.error === 'string'
				? body.error
				: `Connect failed (${res?.status ?? 'no answer'})`;
		await this.load();
	}

	async disconnect(): Promise<void> {
		this.busy = true;
		const res = await this.call('POST', '/oauth/disconnect');
		const body = (await res?.json().catch(() => null)) as { message?: unknown } | null;
		this.message =
			typeof body?.message === 'string' ? body.message : res?.ok ? 'Disconnected.' : '';
		this.busy = false;
		await this.load();
	}

	private call(method: string, path: string): Promise<Response | null> {
		return fetch(path, { method, headers: { 'x-overlay-key': this.key() } }).catch(() => null);
	}
}
