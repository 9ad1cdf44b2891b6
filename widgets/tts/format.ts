// Pure display helpers of the TTS alert: amounts, text direction, reading time, caption timing.

export interface CurrencyInfo {
	/** ISO 4217 code (`tenant.currency`). */
	code: string;
	/** Display symbol (`tenant.currency_symbol`); service-api.md says to render amounts with it. */
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

// Scripts written right to left. Chrome 103 has no :dir(), so the caption highlight needs to know
// the direction `dir="auto"` picks: the first strong character decides, as in the bidi algorithm.
const RTL =
	/[\u200f\u061c\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u;
const LTR = /[\u200e\p{L}]/u;

/** The direction `dir="auto"` gives the text: that of its first strong character, else ltr. */
export function textDirection(text: string | null | undefined): 'ltr' | 'rtl' {
	for (const char of text ?? '') {
		if (RTL.test(char)) return 'rtl';
		if (LTR.test(char)) return 'ltr';
	}
	return 'ltr';
}

/**
 * How long a text-only alert (audio failed) stays up: time to read the message at about 15
 * characters a second, at least `min_display` and 3 s, at most 30 s.
 */
export function textFallbackSeconds(message: string | null, minDisplayS: number): number {
	const chars = Array.from(message ?? '').length;
	const floor = Math.max(minDisplayS, 3);
	return Math.min(Math.max(1.5 + chars / 15, floor), Math.max(30, floor));
}

/**
 * The CSS animation timing of the caption highlight: it lasts the audio's duration and is started
 * in the past (negative delay) when the card renders after playback began, e.g. after the page was
 * throttled. Null when there is nothing to animate.
 */
export function captionTiming(
	durationS: number | null,
	startedAt: number | null,
	now: number
): { durationS: number; delayS: number } | null {
	if (durationS === null || startedAt === null || !(durationS > 0)) return null;
	const elapsedS = Math.min(Math.max((now - startedAt) / 1000, 0), durationS);
	return { durationS, delayS: -elapsedS };
}
