// How a counter's value is written: pure, so the formats are unit-tested without a browser.

export const COUNT_FORMATS = ['plain', 'grouped', 'compact'] as const;
export type CountFormat = (typeof COUNT_FORMATS)[number];

const cache = new Map<string, Intl.NumberFormat>();

function formatter(format: Exclude<CountFormat, 'plain'>, locale: string | undefined) {
	const id = `${format}|${locale ?? ''}`;
	let f = cache.get(id);
	if (!f) {
		f =
			format === 'compact'
				? new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 })
				: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
		cache.set(id, f);
	}
	return f;
}

/** `plain` 12345, `grouped` 12,345, `compact` 12.3K (separators and suffixes by locale). */
export function formatCount(value: number, format: CountFormat, locale?: string): string {
	if (format === 'plain') return String(value);
	return formatter(format, locale).format(value);
}
