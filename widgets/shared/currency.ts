// The tenant's currency, which the widgets show amounts in: GET /me's `tenant.currency` and
// `tenant.currency_symbol` (service-api.md says to render amounts with that symbol).
import type { ApiClient } from '../../src/client/api.ts';
import * as routes from '../../src/contract/routes.ts';
import type { CurrencyInfo } from '../tts/format.ts';

/** Reads the tenant's currency; null when the read failed (the caller may ask again later). */
export async function readCurrency(api: Pick<ApiClient, 'request'>): Promise<CurrencyInfo | null> {
	const me = await api.request(routes.meCurrency);
	return me.ok ? { code: me.body.tenant.currency, symbol: me.body.tenant.currency_symbol } : null;
}
