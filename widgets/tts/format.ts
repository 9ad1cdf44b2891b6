// Pure display helpers of the TTS alert: text direction, reading time, caption timing. Amounts are
// formatted by widgets/shared/currency.ts, which the other widgets share.

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
