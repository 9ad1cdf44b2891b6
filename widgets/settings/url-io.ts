// URLs in and out of the settings editor: a widget or overlay URL pasted in becomes a target's
// values (what names one source stays in its URL), a target's values become a URL with its
// parameters written out (for those who keep them in the URL), and the live sample's frame URL.
// Pure: no DOM, no fetch.
import {
	OVERLAY_ID,
	PER_SOURCE_PARAMS,
	SETTINGS_WIDGETS,
	type SettingsTarget,
	type SettingsValues,
	type SettingsWidget
} from '../../src/contract/index.ts';
import { SETTINGS_KINDS, storedNames, targetLabel } from './schemas.ts';

export type ImportedUrl =
	| {
			ok: true;
			target: SettingsTarget;
			/** The stored parameters the URL sets (empty ones left out: unset). */
			values: SettingsValues;
			/** Per-source parameters the URL has: they stay in that source's URL. */
			kept: string[];
			/** One sentence a parameter the target does not take (left out of `values`). */
			problems: string[];
	  }
	| { ok: false; error: string };

const perSource = new Set<string>(PER_SOURCE_PARAMS);

/** The target of a page path: `/widget/tts` → tts, `/overlay/o_1a2b3c4d` → that overlay. */
export function targetOfPath(path: string): SettingsTarget | null {
	const widget = /^\/widget\/([a-z-]+)\/?$/.exec(path)?.[1];
	if (widget && (SETTINGS_WIDGETS as readonly string[]).includes(widget))
		return widget as SettingsWidget;
	const overlay = /^\/overlay\/([^/]+)\/?$/.exec(path)?.[1];
	return overlay && OVERLAY_ID.test(overlay) ? (overlay as SettingsTarget) : null;
}

/**
 * A pasted URL (absolute, or a path with its query) as a target's values. Its origin does not
 * matter (a URL copied from OBS may name another host): its path and its parameters do.
 */
export function importUrl(text: string): ImportedUrl {
	const trimmed = text.trim();
	if (trimmed === '') return { ok: false, error: 'Paste a widget or overlay URL first.' };
	let url: URL;
	try {
		url = new URL(trimmed, 'http://localhost');
	} catch {
		return { ok: false, error: 'This is not a URL.' };
	}
	const target = targetOfPath(url.pathname);
	if (target === null)
		return {
			ok: false,
			error: `${url.pathname} is not a widget or overlay page: expected /widget/tts (or another widget) or /overlay/o_ and 8 hex digits.`
		};
	const allowed = new Set(storedNames(target));
	const values: SettingsValues = {};
	const kept = new Set<string>();
	const problems: string[] = [];
	for (const [name, value] of url.searchParams) {
		if (perSource.has(name)) kept.add(name);
		else if (!allowed.has(name))
			problems.push(`${name}: not a setting of ${targetLabel(target)}, left out`);
		else if (value.trim() !== '' && !(name in values)) values[name] = value.trim();
	}
	return { ok: true, target, values, kept: [...kept], problems: [...new Set(problems)] };
}

/** A target's set values as URL parameters, in the order of its form (storedNames). */
export function settingsQuery(target: SettingsTarget, values: SettingsValues): URLSearchParams {
	const q = new URLSearchParams();
	for (const name of storedNames(target)) {
		const v = values[name]?.trim();
		if (v) q.set(name, v);
	}
	return q;
}

/** The page path of a target: /widget/{kind} or /overlay/{id}. */
export function pagePath(target: SettingsTarget): string {
	return target.startsWith('o_') ? `/overlay/${target}` : `/widget/${target}`;
}

/**
 * What "Copy URL" copies: with the overlay key (the preview knows it), the source's whole URL with
 * the parameters written out; without it (the editor page has the control key, which must never be
 * in a source's URL), the parameters to append to one's own URL.
 */
export function copyText(
	target: SettingsTarget,
	values: SettingsValues,
	overlay?: { origin: string; key: string }
): string {
	const q = settingsQuery(target, values);
	if (!overlay) {
		const s = q.toString();
		return s ? `&${s}` : '';
	}
	const full = new URLSearchParams({ key: overlay.key });
	for (const [n, v] of q) full.set(n, v);
	return `${overlay.origin}${pagePath(target)}?${full}`;
}

/**
 * The placeholder key of the sample frames: a sample page needs a well-formed key but never
 * connects, and neither the control key nor the overlay key belongs in a frame's URL.
 */
export const SAMPLE_KEY = 'sample-only-no-key';

/**
 * The live sample's URL: the widget page `kind` in its sample mode with the values it takes
 * (an overlay's values, its media widget's `media_volume` as the widget's `volume`), and `extra`
 * (sample_amount, sample_kind).
 */
export function sampleUrl(
	kind: SettingsWidget,
	target: SettingsTarget,
	values: SettingsValues,
	extra: Record<string, string> = {}
): string {
	const fields = SETTINGS_KINDS[kind].fields;
	const q = new URLSearchParams({ key: SAMPLE_KEY, sample: '1' });
	for (const [name, v] of settingsQuery(target, values)) {
		if (kind === 'media' && name === 'volume' && target !== kind) continue;
		if (name === 'media_volume' && kind === 'media') q.set('volume', v);
		else if (Object.hasOwn(fields, name)) q.set(name, v);
	}
	// The tip goal's page requires the overlay whose goal it shows (a per-source parameter).
	if (kind === 'tip-goal') q.set('overlay', target.startsWith('o_') ? target : 'o_00000000');
	for (const [n, v] of Object.entries(extra)) q.set(n, v);
	return `/widget/${kind}?${q}`;
}
