// Guards of the token endpoint: the overlay key (constant time, failures rate-limited per client),
// the Host header (DNS rebinding), and raw-path tricks that URL parsing would silently normalise.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison; hashing first makes the lengths equal. */
export function keyMatches(given: string | undefined, expected: string): boolean {
	if (given === undefined) return false;
	return timingSafeEqual(digest(given), digest(expected));
}

/** Counts failed overlay-key attempts per client in fixed windows. */
export class FailureLimiter {
	private readonly windows = new Map<string, { start: number; count: number }>();

	constructor(
		readonly maxFailures = 10,
		private readonly windowMs = 60_000,
		private readonly now: () => number = Date.now
	) {}

	blocked(client: string): number | null {
		const w = this.windows.get(client);
		if (!w || this.now() - w.start >= this.windowMs) return null;
		return w.count >= this.maxFailures
			? Math.ceil((w.start + this.windowMs - this.now()) / 1000)
			: null;
	}

	fail(client: string): void {
		const now = this.now();
		let w = this.windows.get(client);
		if (!w || now - w.start >= this.windowMs) {
			w = { start: now, count: 0 };
			this.windows.set(client, w);
			if (this.windows.size > 10_000) this.windows.clear(); // bounded memory under a flood
		}
		w.count += 1;
	}
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
