// Guards of the token endpoint: the overlay key (constant time, wrong ones slowed per client), the
// requests other sites' pages send, the Host header (DNS rebinding), and raw-path tricks that URL
// parsing would silently normalise.
import { createHash, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { decide, recent, type WindowLimit } from '../core/window-limit.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison; hashing first makes the lengths equal. */
export function keyMatches(given: string | undefined, expected: string): boolean {
	if (given === undefined) return false;
	return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Counts wrong keys per client address in a window (src/core/window-limit.ts), to slow down whoever
 * keeps sending them. It is only ever asked about a request whose key was already found wrong: a
 * right key is served whatever this holds, so no failure, from any address, can refuse it. Its
 * memory is bounded: past `maxClients` addresses the one that failed least recently is forgotten,
 * one at a time.
 */
export class FailureLimiter {
	/** Per client, the times of its failures that count (at most maxFailures). */
	private readonly failures: LRUCache<string, number[]>;
	private readonly window: WindowLimit;

	constructor(
		maxFailures = 10,
		windowMs = 60_000,
		private readonly now: () => number = Date.now,
		maxClients = 10_000
	) {
		this.window = { limit: maxFailures, windowMs };
		this.failures = new LRUCache({ max: maxClients });
	}

	/**
	 * Counts one wrong key from `client`. Null while it has failed at most maxFailures times in the
	 * window (answer 401); past that, the seconds until the oldest leaves it (429 with Retry-After).
	 */
	fail(client: string): number | null {
		const now = this.now();
		const times = recent(this.window, this.failures.get(client) ?? [], now);
		this.failures.set(client, times);
		const v = decide(this.window, times, now);
		if (v.ok) times.push(now);
		return v.ok ? null : v.retryAfterS;
	}

	/** How many client addresses it remembers (at most maxClients). */
	get clients(): number {
		return this.failures.size;
	}
}

/** The Sec-Fetch-Site values our own pages send: each calls its own origin, or is a navigation. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * A request that a browser marks as sent by a page of another site or origin: `Sec-Fetch-Site`
 * other than same-origin, or an `Origin` that is none of ours. Ours are this request's own host;
 * the public origin (PUBLIC_URL, which a reverse proxy may reach us under another Host); and, for
 * each of `ownHosts` (ALLOWED_HOSTS' names in single mode), `http://name` and `https://name` on
 * their standard ports, as a proxy on that name shows our pages. Our pages only ever call the
 * server that served them, so such a request is never theirs. Programs that are not browsers send
 * neither header, and are judged by their key alone.
 */
export function crossSite(
	header: (name: string) => string | undefined,
	publicOrigin?: string,
	ownHosts: readonly string[] = []
): boolean {
	const site = header('sec-fetch-site');
	if (site !== undefined && !OWN_FETCH_SITES.has(site.trim().toLowerCase())) return true;
	const origin = header('origin');
	if (origin === undefined) return false;
	if (publicOrigin !== undefined && origin === publicOrigin) return false;
	let url: URL;
	try {
		url = new URL(origin);
	} catch {
		return true; // `null` (a sandboxed frame, a file on disk) or garbage
	}
	const web = url.protocol === 'http:' || url.protocol === 'https:';
	if (web && url.port === '' && ownHosts.includes(url.hostname)) return false;
	return url.host === '' || url.host !== (header('host') ?? '').trim().toLowerCase();
}

/**
 * Who a request is from, for the failed-key limit. Behind a reverse proxy on this machine (the
 * README's TLS setup for hosted mode) every request comes from loopback: the client is then the
 * address the proxy appended to X-Forwarded-For (the last; a client can only prepend others).
 * From any other peer the header is ignored.
 */
export function forwardedClient(peer: string, forwardedFor: string | undefined): string {
	const last = forwardedFor?.split(',').pop()?.trim();
	return /^(127\.|::1$|::ffff:127\.)/.test(peer) && last ? last : peer;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * A browser page on an attacker's domain that rebinds its name to 127.0.0.1 still sends its own name
 * as Host. IP literals and localhost cannot be rebound, so they always pass; other names must be
 * listed (the configured HOST and ALLOWED_HOSTS).
 */
export function hostAllowed(hostHeader: string | undefined, allowed: readonly string[]): boolean {
	if (!hostHeader) return false;
	const host = hostHeader
		.trim()
		.toLowerCase()
		.replace(/:\d+$/, '')
		.replace(/^\[(.*)\]$/, '$1');
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	if (IPV4.test(host) || (host.includes(':') && /^[0-9a-f:.]+$/.test(host))) return true;
	return allowed.includes(host);
}

/** Dot segments, encoded separators and backslashes in the raw request target. */
export function rawPathTricky(rawTarget: string): boolean {
	const path = rawTarget.split('?')[0];
	return (
		/(^|\/)\.{1,2}(\/|$)/.test(path) ||
		/%2e|%2f|%5c|%00/i.test(path) ||
		path.includes('\\') ||
		path.includes('//')
	);
}
