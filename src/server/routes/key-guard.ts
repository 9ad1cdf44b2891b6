// What every key check (overlay-key.ts, control-key.ts) does around the key itself, with one
// limiter for every kind of key: first, a request another site's page sent is refused (403
// cross_site) without counting, so no page on the web can make the limiter slow anyone; then, only
// once a key was found wrong, its client is counted and answered 401, or 429 with Retry-After when
// it keeps failing. A right key never reaches the limiter: no one's failures can refuse it.
import type { Context } from 'hono';
import type { AppOptions } from '../app-options.ts';
import type { KeyRefusal } from '../caller.ts';
import { HttpError } from '../http-error.ts';
import { crossSite, FailureLimiter } from '../security.ts';

type GuardOptions = Pick<
	AppOptions,
	'failures' | 'clientAddress' | 'publicOrigin' | 'ownHosts' | 'keyRefused'
>;

export class KeyGuard {
	readonly failures: FailureLimiter;

	constructor(private readonly opts: GuardOptions) {
		this.failures = opts.failures ?? new FailureLimiter();
	}

	/** Run before a key is read: another site's request is refused here, uncounted. */
	refuseCrossSite(c: Context): void {
		const { publicOrigin, ownHosts } = this.opts;
		if (!crossSite((name) => c.req.header(name), publicOrigin, ownHosts)) return;
		this.opts.keyRefused?.('cross_site', this.#client(c));
		throw new HttpError(
			403,
			'cross_site',
			"a page of another site sent this request: open the page from this server's own address"
		);
	}

	/** A request whose `kind` of key was found wrong: 401, or 429 once its client keeps failing. */
	wrongKey(c: Context, kind: KeyKind): HttpError {
		const client = this.#client(c);
		const wait = this.failures.fail(client);
		this.opts.keyRefused?.(wait === null ? 'wrong_key' : 'too_many_attempts', client);
		if (wait === null) return new HttpError(401, ...REFUSALS[kind].wrong);
		return new HttpError(429, 'too_many_attempts', 'too many wrong keys; wait a minute', {
			'Retry-After': String(wait)
		});
	}

	/**
	 * What a hosted key lookup found: the caller; or the refusal of a key its streamer replaced
	 * (uncounted: it was right once), or of one that was never right (counted, as wrongKey).
	 */
	found<T extends object>(c: Context, found: T | { replaced: true } | null, kind: KeyKind): T {
		if (found && 'replaced' in found) throw new HttpError(401, ...REFUSALS[kind].replaced);
		if (!found) throw this.wrongKey(c, kind);
		return found;
	}

	#client(c: Context): string {
		return this.opts.clientAddress?.(c) ?? 'local';
	}
}

/**
 * Single mode's console line about refused keys, at most one a minute of each kind: wrong keys
 * answered 429 are most often an OBS source or a dock whose URL still has a replaced key.
 */
export function keyRefusalLog(
	log: (line: string) => void = console.warn,
	now: () => number = Date.now
): NonNullable<AppOptions['keyRefused']> {
	const last = new Map<KeyRefusal, number>();
	return (answer, client) => {
		if (answer === 'wrong_key') return;
		const at = now();
		if (at - (last.get(answer) ?? -Infinity) < 60_000) return;
		last.set(answer, at);
		log(
			answer === 'too_many_attempts'
				? `[keys] wrong keys from ${client} are answered 429 for a minute: an OBS source or a dock still has an old URL? The right keys keep working; give it the URL npm start printed.`
				: `[keys] refused a request that a page of another site sent from ${client} (403 cross_site).`
		);
	};
}

type KeyKind = 'overlay' | 'control';

/** Each kind of key's refusals (code, text): a wrong or missing key, a key its streamer replaced. */
const REFUSALS: Record<KeyKind, Record<'wrong' | 'replaced', [string, string]>> = {
	overlay: {
		wrong: ['bad_overlay_key', 'missing or wrong overlay key (the ?key= of the URL)'],
		replaced: [
			'overlay_key_replaced',
			'this overlay URL was replaced by a newer one: copy the new URL from your dashboard into OBS'
		]
	},
	control: {
		wrong: ['bad_control_key', 'missing or wrong control key (the ?key= of the dock URL)'],
		replaced: [
			'control_key_replaced',
			'this dock URL was replaced by a newer one: copy the new dock URL from your dashboard'
		]
	}
};
