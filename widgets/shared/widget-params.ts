// URL parameters that several widgets take with the same meaning and the same rules: declared once
// here, so that `debug`, `instance` or `claim` cannot drift apart between widgets. The theme
// parameters (font, color, accent, scale, position) and the key are in theme-params.ts, a widget's
// place in an upstream overlay in place-params.ts.
import {
	flag,
	identifier,
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

/** `on` or `off`, on unless the URL says otherwise (`info`, `text_fallback`). */
export const onOff = /*@__PURE__*/ param(/*@__PURE__*/ oneOf(['on', 'off'] as const), {
	default: 'on',
	expects: 'on or off'
});

/** A share from 0 to 1 (volumes). */
export function share(dflt: number): ParamField<number> {
	return param(numberIn(0, 1), { default: dflt, expects: 'a number from 0 to 1' });
}

/** When a copy of a queue widget (TTS, media) takes items (src/core/claim-protocol.ts). */
export const CLAIM_RULES = ['visible', 'active', 'always', 'never'] as const;
export const claimField = /*@__PURE__*/ param(/*@__PURE__*/ oneOf(CLAIM_RULES), {
	default: 'visible',
	expects: 'visible, active, always or never'
});

/** `instance`: tells two copies of a queue widget apart (their claim memory). */
export const instanceField = /*@__PURE__*/ param(/*@__PURE__*/ identifier(64), {
	defaultText: 'derived from the page',
	expects: 'up to 64 characters of A-Z a-z 0-9 _ -'
});
