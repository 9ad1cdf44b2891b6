// Display helpers of the widgets: amounts in the tenant's currency (widgets/shared/currency.ts), and
// the TTS alert's text direction, reading time of a text-only alert and caption highlight timing.
import { describe, expect, it } from 'vitest';
import { formatAmount, isKnownCurrency } from '../../widgets/shared/currency.ts';
import { captionTiming, textDirection, textFallbackSeconds } from '../../widgets/tts/format.ts';

const USD = { code: 'USD', symbol: '$' };
const EUR = { code: 'EUR', symbol: '€' };
const JPY = { code: 'JPY', symbol: '¥' };
// Intl writes a no-break space between number and symbol in many locales.
const flat = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatAmount', () => {
	it('formats US dollars with two decimals', () => {
		expect(formatAmount(5, USD, 'en-US')).toBe('$5.00');
		expect(formatAmount(1234.5, USD, 'en-US')).toBe('$1,234.50');
	});

	it('places the euro sign and separators as the locale does', () => {
		expect(flat(formatAmount(5, EUR, 'de-DE'))).toBe('5,00 €');
		expect(flat(formatAmount(1234.5, EUR, 'de-DE'))).toBe('1.234,50 €');
		expect(formatAmount(5, EUR, 'en-US')).toBe('€5.00');
	});

	it('writes yen without decimals', () => {
		expect(formatAmount(500, JPY, 'en-US')).toBe('¥500');
		expect(formatAmount(1234.5, JPY, 'en-US')).toBe('¥1,235');
		expect(formatAmount(500, JPY, 'ja-JP')).toBe('¥500');
	});

	it("uses the tenant's symbol rather than Intl's", () => {
		expect(formatAmount(5, { code: 'CAD', symbol: '$' }, 'en-US')).toBe('$5.00');
		expect(formatAmount(5, { code: 'CAD', symbol: '' }, 'en-US')).toBe('$5.00');
	});

	it('falls back to symbol + number for a currency code Intl does not know', () => {
		expect(isKnownCurrency('ABC')).toBe(false);
		expect(formatAmount(5, { code: 'ABC', symbol: '₳' }, 'en-US')).toBe('₳5');
		expect(formatAmount(5.5, { code: 'ABC', symbol: '₳' }, 'en-US')).toBe('₳5.50');
		expect(formatAmount(5.5, { code: 'ABC', symbol: '' }, 'en-US')).toBe('5.50 ABC');
		expect(formatAmount(7, { code: 'dollars', symbol: 'D' }, 'en-US')).toBe('D7');
	});

	it('a null or non-finite amount shows nothing', () => {
		expect(formatAmount(null, USD, 'en-US')).toBe('');
		expect(formatAmount(Number.NaN, USD, 'en-US')).toBe('');
		expect(formatAmount(Number.POSITIVE_INFINITY, USD, 'en-US')).toBe('');
	});

	it('accepts a lower-case code, no currency at all, and a malformed locale', () => {
		expect(formatAmount(5, { code: 'usd', symbol: '$' }, 'en-US')).toBe('$5.00');
		expect(formatAmount(1234.5, null, 'en-US')).toBe('1,234.50');
		expect(formatAmount(5, USD, 'not a locale!')).toMatch(/5/);
	});
});

describe('textDirection', () => {
	it('follows the first strong character, as dir="auto" does', () => {
		expect(textDirection('שלום world')).toBe('rtl');
		expect(textDirection('hello שלום')).toBe('ltr');
		expect(textDirection('123 مرحبا')).toBe('rtl');
		expect(textDirection('🔥🔥 ')).toBe('ltr');
		expect(textDirection(null)).toBe('ltr');
	});
});

describe('textFallbackSeconds', () => {
	it('gives short messages at least min_display (and 3 s)', () => {
		expect(textFallbackSeconds('gg', 4)).toBe(4);
		expect(textFallbackSeconds('gg', 0)).toBe(3);
		expect(textFallbackSeconds(null, 4)).toBe(4);
	});

	it('grows with the length of the message, up to 30 s', () => {
		const medium = textFallbackSeconds('x'.repeat(150), 4);
		expect(medium).toBeCloseTo(11.5, 5);
		expect(textFallbackSeconds('x'.repeat(500), 4)).toBe(30);
	});
});

describe('captionTiming', () => {
	it('is null until both the duration and the start are known', () => {
		expect(captionTiming(null, 1000, 2000)).toBeNull();
		expect(captionTiming(3, null, 2000)).toBeNull();
		expect(captionTiming(0, 1000, 2000)).toBeNull();
	});

	it('starts the animation in the past when the card renders late, never beyond its end', () => {
		expect(captionTiming(3, 10_000, 10_000)).toEqual({ durationS: 3, delayS: -0 });
		expect(captionTiming(3, 10_000, 11_500)).toEqual({ durationS: 3, delayS: -1.5 });
		expect(captionTiming(3, 10_000, 60_000)).toEqual({ durationS: 3, delayS: -3 });
		expect(captionTiming(3, 10_000, 9_000)).toEqual({ durationS: 3, delayS: -0 });
	});
});
