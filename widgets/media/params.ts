// URL parameters of the media widget: the one place they are declared. The page parses them with
// parseMediaParams(location.search); README's table comes from MEDIA_PARAM_DOCS.
import {
	paramDocs,
	parseParams,
	type ParamResult,
	type ParamValues
} from '../../src/client/params.ts';
import { KEY_DESCRIPTION, keyField, themeFields } from '../shared/theme-params.ts';
import {
	choice,
	claimField,
	instanceField,
	numberField,
	offFlag,
	onOff,
	share
} from '../shared/widget-params.ts';
import type { MediaTheme } from './view.ts';

export const WITH_TTS = ['duck', 'hold', 'ignore'] as const;

export const mediaParamFields = {
	key: keyField,
	volume: share(1),
	with_tts: choice(WITH_TTS, 'duck'),
	duck_volume: share(0.25),
	size: numberField(0.1, 1, 1),
	info: onOff,
	claim: claimField,
	debug: offFlag,
	sample: offFlag,
	instance: instanceField,
	...themeFields('center')
};

export type MediaParams = ParamValues<typeof mediaParamFields>;

/** Parses the URL parameters (e.g. `location.search`). */
export const parseMediaParams = (search: string | URLSearchParams) =>
	parseParams(mediaParamFields, search);

/**
 * The media widget's parameters inside an overlay page, whose URL it shares with the TTS widget:
 * `media_volume`, when given, is the videos' `volume` there.
 */
export function mediaParamsForOverlay(search: string | URLSearchParams): ParamResult<MediaParams> {
	const q = new URLSearchParams(search);
	const own = q.get('media_volume');
	q.delete('media_volume');
	if (own !== null) q.set('volume', own);
	const r = parseMediaParams(q);
	if (r.ok || own === null) return r;
	return { ok: false, errors: r.errors.map((e) => e.replace(/^volume\b/, 'media_volume')) };
}

export const MEDIA_PARAM_DOCS = /*@__PURE__*/ paramDocs(mediaParamFields, {
	key: KEY_DESCRIPTION,
	volume: 'loudness of the videos (in an overlay page `media_volume` sets it for videos alone)',
	with_tts:
		'while a tip is read aloud (TTS on this overlay or another source of this server): duck lowers the video, hold lets the video play on but starts the next one only after the tip, ignore does nothing',
	duck_volume: 'with_tts=duck: the share of `volume` the video keeps while a tip is read',
	size: 'width of the player as a share of the page (or of its box in an overlay)',
	info: 'on: title, thumbnail and requester over the video for its first and last seconds, and a progress bar',
	claim:
		'when this copy takes videos: visible (shown anywhere in OBS), active (on air in Program), always; never: only shows what another copy plays (the preview)',
	debug:
		'1 shows a diagnostics panel (connection, claim, the videos this copy could not play and why)',
	sample:
		'1 shows the player with a sample video request (its info and progress bar, no video) and nothing else (no connection, no claims, no sound): for placing and theming the widget',
	instance: 'tells two copies of this widget apart (e.g. two scenes with their own source)',
	font: 'font of the title and requester, installed on the streaming PC',
	color: 'text colour of the title and requester',
	accent: 'colour of the progress bar and the requester name',
	scale: 'size of the text under the video',
	position: 'where the player sits on the page (when `size` is below 1)'
});

export function mediaTheme(p: MediaParams): MediaTheme {
	return { ...p, info: p.info === 'on' };
}
