// Who a dock's /control request acts for, in hosted mode (AppOptions resolveControl, sessionCsrf,
// controlLock; the routes are src/server/routes/control.ts):
// - a dock URL's control key, in X-Control-Key: looked up in `control_keys` only (streamer-keys.ts),
//   so an overlay key never passes, nor a replaced or turned-off control key;
// - else the signed-in dashboard's session cookie, with X-CSRF-Token equal to the session's CSRF
//   token (the dock page reads it from GET /control/session), and on a POST an Origin that is
//   PUBLIC_URL's. A page on another site can send the cookie along, but cannot read the token.
// Each resolves to one streamer only, whose own upstream client serves the request: nothing in a
// request can name another streamer.
import type { Context } from 'hono';
import type { AppOptions } from '../server/app-options.ts';
import type { ControlAccess } from '../server/caller.ts';
import type { HostedConnections } from './connections.ts';
import { sessionCookie } from './session-cookie.ts';
import type { HostedStore } from './store.ts';

export interface HostedControlOptions {
	store: HostedStore;
	connections: HostedConnections;
	/** PUBLIC_URL: the only Origin a session's POST may come from. */
	publicUrl: string;
}

type HostedControl = Required<Pick<AppOptions, 'resolveControl' | 'sessionCsrf' | 'controlLock'>>;

/** Requests a browser sends without an Origin header from a page of the same site. */
const SAFE = new Set(['GET', 'HEAD']);

export function hostedControl(o: HostedControlOptions): HostedControl {
	const { store, connections } = o;
	const origin = new URL(o.publicUrl).origin;
	const cookie = sessionCookie(o.publicUrl);
	const access = (streamerId: string): ControlAccess => ({
		streamer: streamerId,
		upstream: connections.upstream(streamerId)
	});

	const bySession = async (c: Context): Promise<ControlAccess | null> => {
		if (!SAFE.has(c.req.method) && c.req.header('origin') !== origin) return null;
		const token = cookie.tokenOf(c);
		const csrf = c.req.header('x-csrf-token');
		if (!token || !csrf) return null;
		const id = await store.sessionWithCsrf(token, csrf);
		// A disconnected streamer's keys are off: their session acts on nothing either.
		const me = id ? await store.streamer(id) : null;
		return me && me.status !== 'disconnected' ? access(me.id) : null;
	};

	return {
		resolveControl: async (c) => {
			const key = c.req.header('x-control-key');
			// A request with a key is decided by the key alone, whatever cookie comes along.
			if (key === undefined) return bySession(c);
			const found = await store.resolveControlKey(key);
			return found && 'streamerId' in found ? access(found.streamerId) : found;
		},
		sessionCsrf: async (c) => {
			const token = cookie.tokenOf(c);
			return token ? store.sessionCsrf(token) : null;
		},
		controlLock: (streamer, action) => store.controlLock(streamer, action)
	};
}
