// Amounts in the tenant's currency, written the same wherever money shows (the widgets, the dock,
// a thanks in chat): the currency of GET /me (`tenant.currency`, `tenant.currency_symbol`) and
// Intl's formatting with the tenant's own symbol. Pure.

export interface CurrencyInfo {
	/** ISO 4217 code (`tenant.currency`). */
	code: string;
	/** Display symbol (`tenant.currency_symbol`); docs/upstream.md says to render amounts with it. */
	symbol: string;
}

let knownCurrencies: ReadonlySet<string> | null | undefined;

/**
 * Whether Intl knows the ISO 4217 code. Intl.NumberFormat formats any three-letter code without
 * complaint (`XYZ 5.00`), so the list of supported values is the only way to tell.
 */
export function isKnownCurrency(code: string): boolean {
	if (!/^[A-Z]{3}$/.test(code)) return false;
	if (knownCurrencies === undefined) {
		// Intl.supportedValuesOf: Chrome 99, so present in OBS 30's 103; not in the ES2021 lib types.
		const list = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
		knownCurrencies = typeof list === 'function' ? new Set(list('currency')) : null;
	}
	return knownCurrencies === null || knownCurrencies.has(code);
}

/** A NumberFormat for the locale, or for the browser's locale when the tag is not valid. */
function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions) {
	try {
		return new Intl.NumberFormat(locale, options);
	} catch {
		return new Intl.NumberFormat(undefined, options);
	}
}

/**
 * The amount as the tenant's currency: Intl places the symbol and picks the decimals for the
 * currency (JPY has none), and the tenant's own symbol replaces Intl's (`$` rather than `CA$`).
 * A null or non-finite amount gives ''. A code Intl does not know falls back to symbol + number.
 */
export function formatAmount(
	amount: number | null,
	currency: CurrencyInfo | null,
	locale?: string
): string {
	if (amount === null || !Number.isFinite(amount)) return '';
	const code = currency?.code.trim().toUpperCase() ?? '';
	const symbol = currency?.symbol.trim() ?? '';
	if (isKnownCurrency(code)) {
		const parts = numberFormat(locale, {
			style: 'currency',
			currency: code,
			currencyDisplay: 'narrowSymbol'
		}).formatToParts(amount);
		return parts.map((p) => (p.type === 'currency' && symbol ? symbol : p.value)).join('');
	}
	const number = numberFormat(locale, {
		minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
		maximumFractionDigits: 2
	}).format(amount);
	if (symbol) return symbol + number;
	return /^[A-Z]{3}$/.test(code) ? `${number} ${code}` : number;
}
