// Dashboard sessions in hosted mode: a signed-in streamer's browser holds a random token (routes.ts
// keeps it in a cookie), and the database keeps only the token's keyed hash (crypto.ts), the
// streamer and an expiry. Expired sessions are deleted whenever a new one starts. A session's CSRF
// token (what its pages send with each /control call) is derived from its token (crypto.ts), so
// nothing more is stored for it.
import { randomToken } from './crypto.ts';
import { addExpiring, type StoreContext } from './store-context.ts';

/** What a session token looks like (randomToken: 32 random bytes, base64url). */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class Sessions {
	constructor(private readonly ctx: StoreContext) {}

	/** A new session for the streamer, valid for `ttlMs`: its token, for the cookie. */
	async create(streamerId: string, ttlMs: number): Promise<string> {
		const token = randomToken();
		const hash = this.ctx.box.lookupHash(token);
		await addExpiring(this.ctx, 'sessions', { hash, streamer_id: streamerId }, ttlMs);
		return token;
	}

	/** The streamer of a live session, or null (unknown, expired, or signed out). */
	async streamerOf(token: string): Promise<string | null> {
		if (!SESSION_TOKEN.test(token)) return null;
		const row = await this.ctx.db
			.selectFrom('sessions')
			.select('streamer_id')
			.where('hash', 'in', this.ctx.box.lookupHashes(token))
			.where('expires_at', '>', this.ctx.now())
			.executeTakeFirst();
		return row?.streamer_id ?? null;
	}

	/** The CSRF token of a live session, or null (unknown, expired, or signed out). */
	async csrf(token: string): Promise<string | null> {
		return (await this.streamerOf(token)) ? this.ctx.box.csrfToken(token) : null;
	}

	/** The streamer of a live session whose CSRF token is `csrf` (compared in constant time). */
	async streamerWithCsrf(token: string, csrf: string): Promise<string | null> {
		if (!SESSION_TOKEN.test(token) || !this.ctx.box.csrfMatches(token, csrf)) return null;
		return this.streamerOf(token);
	}

	/** Sign out: the session is deleted. */
	async end(token: string): Promise<void> {
		await this.ctx.db
			.deleteFrom('sessions')
			.where('hash', 'in', this.ctx.box.lookupHashes(token))
			.execute();
	}
}
