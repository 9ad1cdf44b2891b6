// The tenant's currency for the widgets that show money (the TTS alert, the tip goal, recent events,
// top supporters): read from GET /me, and formatted by src/core/money.ts.
import type { ApiClient } from '../../src/client/api.ts';
import * as routes from '../../src/contract/routes.ts';
import type { CurrencyInfo } from '../../src/core/money.ts';

export { formatAmount, isKnownCurrency, type CurrencyInfo } from '../../src/core/money.ts';

/** Reads the tenant's currency; null when the read failed (the caller may ask again later). */
export async function readCurrency(api: Pick<ApiClient, 'request'>): Promise<CurrencyInfo | null> {
	const me = await api.request(routes.meCurrency);
	return me.ok ? { code: me.body.tenant.currency, symbol: me.body.tenant.currency_symbol } : null;
}
