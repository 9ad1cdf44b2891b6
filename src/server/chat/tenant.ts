// What a thanks needs to know of the streamer's account (GET /me): the currency its amounts are
// written in, kept a while per streamer, and the credential's scopes (does it have chat:write).
// A read that fails answers null (or the currency kept before): the caller decides what then.
import { LRUCache } from 'lru-cache';
import { ROUTES } from '../../contract/index.ts';
import { meCurrency } from '../../contract/routes.ts';
import type { CurrencyInfo } from '../../core/money.ts';
import { ask } from '../control-actions.ts';
import type { UpstreamClient } from '../upstream.ts';

const CURRENCY_KEEP_MS = 10 * 60_000;

export class TenantInfo {
	/** Per streamer (the most recently asked of); a stale one answers while /me fails. */
	readonly #currency = new LRUCache<string, { info: CurrencyInfo; at: number }>({ max: 10_000 });

	constructor(private readonly now: () => number) {}

	async currency(streamer: string, up: UpstreamClient): Promise<CurrencyInfo | null> {
		const had = this.#currency.get(streamer);
		if (had && this.now() - had.at < CURRENCY_KEEP_MS) return had.info;
		try {
			const me = await ask(up, meCurrency);
			const info = { code: me.tenant.currency, symbol: me.tenant.currency_symbol };
			this.#currency.set(streamer, { info, at: this.now() });
			return info;
		} catch {
			return had?.info ?? null;
		}
	}

	/** The credential's scopes, or null when they cannot be read now. */
	async scopes(up: UpstreamClient): Promise<string[] | null> {
		try {
			return (await ask(up, ROUTES.me)).key.scopes;
		} catch {
			return null;
		}
	}
}
