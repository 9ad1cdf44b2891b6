// The dashboard session's cookie: a random token (sessions.ts), HttpOnly and SameSite=Lax, Secure
// and named `__Host-session` when PUBLIC_URL is https. The dashboard's pages (routes.ts) set and
// read it; the dock's /control calls read it too (control.ts).
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';

export interface SessionCookie {
	/** PUBLIC_URL is https: the cookie is Secure and named `__Host-session`. */
	secure: boolean;
	name: string;
	/** The session token this request carries, if any. */
	tokenOf(c: Context): string | undefined;
}

export function sessionCookie(publicUrl: string): SessionCookie {
	const secure = publicUrl.startsWith('https://');
	const name = secure ? '__Host-session' : 'session';
	return { secure, name, tokenOf: (c) => getCookie(c, name) };
}
