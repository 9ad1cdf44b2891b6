// What the widgets' still samples (`sample=1`, src/pages/sample-page.ts) share: the currency their
// amounts are shown in, and a list widget's view from its sample rows.
import type { CurrencyInfo } from './currency.ts';
import type { ListViewModel } from './list-reads.svelte.ts';

/** A sample has no tenant to read the currency from (GET /me). */
export const SAMPLE_CURRENCY: CurrencyInfo = { code: 'USD', symbol: '$' };

/** A list read once, with the first `limit` of the sample rows: what the URL's `limit` shows. */
export function sampleList<Row>(rows: readonly Row[], limit: number): ListViewModel<Row> {
	return {
		status: 'ready',
		statusDetail: '',
		rows: rows.slice(0, limit),
		loaded: true,
		currency: SAMPLE_CURRENCY
	};
}
