// The URL parameters several widgets take with one meaning, declared once (the overlay key, which
// every widget takes, is in theme-params.ts): the upstream overlay a widget belongs to, debug=1 and
// the instance name. Each widget's table (widgets/<name>/params.ts) picks them, with its own README
// wording where the meaning differs.
import { z } from 'zod/mini';
import { OVERLAY_ID } from '../../src/contract/index.ts';
import { flag, identifier, param } from '../../src/client/params.ts';

/** An upstream overlay id (CONTRACT.md, Overlay). */
export const overlayIdParam: z.ZodMiniType<string, string> = z
	.string()
	.check(z.trim(), z.regex(OVERLAY_ID));

/** debug=1 shows the widget's diagnostics panel; `description` says what is in it. */
export function debugField(description: string) {
	return param(flag, { default: false, defaultText: '0', expects: '1 or 0', description });
}

export const instanceField = param(identifier(64), {
	defaultText: 'derived from the page',
	expects: 'up to 64 characters of A-Z a-z 0-9 _ -',
	description: 'tells two copies of this widget apart (e.g. two scenes with their own source)'
});
