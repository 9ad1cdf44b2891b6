// URL parameters that several widgets take with the same meaning and the same rules: declared once
// here, so that `debug`, `instance` or `claim` cannot drift apart between widgets. The theme
// parameters (font, color, accent, scale, position) and the key are in theme-params.ts, a widget's
// place in an upstream overlay in place-params.ts.
import {
	flag,
	identifier,
	integerIn,
	numberIn,
	oneOf,
	param,
	type ParamField
} from '../../src/client/params.ts';

/** A switch that is off unless the URL says 1 (`debug`, `sample`). */
export const offFlag = /*@__PURE__*/ param(flag, {
	default: false,
	defaultText: '0',
	expects: '1 or 0'
});

/** One word of `values` (any case), `dflt` unless the URL says another; expects `a, b or c`. */
export function choice<const T extends readonly [string, ...string[]]>(
	values: T,
	dflt: NoInfer<T[number]>
): ParamField<T[number]> {
	const last = values.length - 1;
	return param(oneOf(values), {
		default: dflt,
		expects: `${values.slice(0, last).join(', ')} or ${values[last]}`
	});
}

/** `on` or `off`, on unless the URL says otherwise (`info`, `text_fallback`). */
export const onOff = /*@__PURE__*/ choice(['on', 'off'], 'on');

/** A number from `min` to `max`, said as `unit` (`a number`, `seconds`) in errors and the README. */
export function numberField(
	min: number,
	max: number,
	dflt: number,
	unit = 'a number'
): ParamField<number> {
	return param(numberIn(min, max), { default: dflt, expects: `${unit} from ${min} to ${max}` });
}

/** A share from 0 to 1 (volumes). */
export function share(dflt: number): ParamField<number> {
	return numberField(0, 1, dflt);
}

/** A duration in seconds from `min` to `max`. */
export function seconds(min: number, max: number, dflt: number): ParamField<number> {
	return numberField(min, max, dflt, 'seconds');
}

/** A whole number from `min` to `max` (a list's length, a count of attempts). */
export function wholeNumber(min: number, max: number, dflt: number): ParamField<number> {
	return param(integerIn(min, max), {
		default: dflt,
		expects: `a whole number from ${min} to ${max}`
	});
}

/** When a copy of a queue widget (TTS, media) takes items (src/core/claim-protocol.ts). */
export const CLAIM_RULES = ['visible', 'active', 'always', 'never'] as const;
export const claimField = /*@__PURE__*/ choice(CLAIM_RULES, 'visible');

/** `instance`: tells two copies of a queue widget apart (their claim memory). */
export const instanceField = /*@__PURE__*/ param(/*@__PURE__*/ identifier(64), {
	defaultText: 'derived from the page',
	expects: 'up to 64 characters of A-Z a-z 0-9 _ -'
});
