// /overlay/{overlayId}?key=K: every widget of one upstream overlay, at its resolution, on one
// realtime connection. Widgets whose type this build cannot show are left out.
import { mount } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { createAudioPort } from '../client/audio.ts';
import { EventHub } from '../client/event-hub.ts';
import { createObsBridge, type ObsBridge } from '../client/obs.ts';
import {
	announceCelebration,
	createSpeechAnnouncer,
	listenCelebrations,
	type SpeechAnnouncer
} from '../client/sound-bus.ts';
import type { ParamResult } from '../client/params.ts';
import { connectWidgets } from '../client/widget-page.ts';
import { OVERLAY_ID, type Overlay, type OverlayWidget } from '../contract/index.ts';
import OverlayApp from '../../widgets/overlay/OverlayApp.svelte';
import { widgetBox, type Box } from '../../widgets/overlay/layout.ts';
import type { Placed } from '../../widgets/overlay/placed.ts';
import { CelebrationState } from '../../widgets/celebration/celebration.svelte.ts';
import { parseCelebrationParams } from '../../widgets/celebration/params.ts';
import { CountersState } from '../../widgets/counters/counters.svelte.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { withPlace } from '../../widgets/shared/place-params.ts';
import { parseTipGoalParams } from '../../widgets/tip-goal/params.ts';
import { TipGoalTracker } from '../../widgets/tip-goal/tip-goal.svelte.ts';
import { parseTtsParams, type TtsParams } from '../../widgets/tts/params.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';
import * as routes from '../contract/routes.ts';
import { COUNTER_EVENTS, MEDIA_EVENTS, OVERLAY_EVENTS, TTS_EVENTS } from '../contract/events.ts';

const target = document.getElementById('app')!;
const overlayId = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const parsed = parseTtsParams(location.search);

function fail(title: string, problems: string[], hint?: string): void {
	mount(OverlayApp, { target, props: { error: { title, problems, hint } } });
}

async function main(): Promise<void> {
	const loaded = await loadOverlay();
	if (!loaded) return;
	const { params, api, overlay } = loaded;
	const events = new EventHub();
	const audio = createAudioPort();
	const placed: Placed[] = [];
	const page: OverlayPage = {
		params,
		api,
		overlay,
		events,
		audio,
		obs: createObsBridge(),
		// The TTS widgets tell media players (this overlay's and other sources') when a tip is read.
		speech: createSpeechAnnouncer(),
		placed,
		problems: [],
		unlockers: [() => audio.unlock()],
		celebrateHere: (reason) => {
			let fired = false;
			for (const w of placed)
				if (w.kind === 'celebration') {
					w.state.fire(reason);
					fired = true;
				}
			return fired;
		}
	};
	for (const widget of overlay.widgets) await placeWidget(page, widget);
	if (page.problems.length)
		return fail(
			'This overlay URL needs fixing',
			[...new Set(page.problems)],
			'The README lists every parameter.'
		);
	start(page);
}

/** What the widgets of this overlay share, and what placing them gathers. */
interface OverlayPage {
	/** The page's parameters (the TTS widget's, which every widget's start from). */
	params: TtsParams;
	api: ApiClient;
	overlay: Overlay;
	events: EventHub;
	audio: ReturnType<typeof createAudioPort>;
	obs: ObsBridge;
	speech: SpeechAnnouncer;
	/** The widgets placed so far. */
	placed: Placed[];
	/** What is wrong with the URL, for one widget or another. */
	problems: string[];
	/** What the page's "unlock audio" click unlocks: the audio port, and each media player. */
	unlockers: (() => unknown)[];
	/** Fires this overlay's celebration widgets; false when it has none. */
	celebrateHere(reason: string): boolean;
}

/** The page's parameters, its API client and the overlay it shows; null once a failure is shown. */
async function loadOverlay(): Promise<{
	params: TtsParams;
	api: ApiClient;
	overlay: Overlay;
} | null> {
	if (!OVERLAY_ID.test(overlayId)) {
		fail('This overlay URL needs fixing', [`"${overlayId}" is not an overlay id (o_ + 8 hex)`]);
		return null;
	}
	if (!parsed.ok) {
		fail(
			'This overlay URL needs fixing',
			parsed.errors,
			'Edit the URL in the browser source properties. The README lists every parameter.'
		);
		return null;
	}
	const params = parsed.value;
	const api = new ApiClient({ overlayKey: params.key });
	const res = await api.request(routes.overlayRead, { overlayId });
	if (res.ok) return { params, api, overlay: res.body.overlay };
	if (res.kind === 'http' && res.status === 401)
		fail('The overlay key was refused', ['The server did not accept the key in this URL.']);
	else if (res.kind === 'http' && res.status === 403)
		fail('The API key cannot read overlays', [
			'The upstream API key of the token endpoint lacks the overlays:manage scope.'
		]);
	else if (res.kind === 'http' && res.status === 404)
		fail('No such overlay', [`The upstream has no overlay ${overlayId}.`]);
	else
		fail('The overlay could not be loaded', [
			res.kind === 'http'
				? `The server answered ${res.status}.`
				: 'The server could not be reached.'
		]);
	return null;
}

/** A widget's own parameters: the page's, with its place in this overlay; null when wrong. */
function paramsFor<P>(
	page: OverlayPage,
	parse: (q: URLSearchParams) => ParamResult<P>,
	id: string
): P | null {
	const p = parse(withPlace(location.search, page.overlay.id, id));
	if (!p.ok) page.problems.push(...p.errors);
	return p.ok ? p.value : null;
}

/** Places one widget of the overlay, or notes what is wrong with its parameters. */
async function placeWidget(page: OverlayPage, widget: OverlayWidget): Promise<void> {
	const { api, events, overlay, placed } = page;
	const box = widgetBox(overlay, widget);
	const id = widget.id;
	if (widget.type === 'tts') await placeTts(page, id, box);
	else if (widget.type === 'counter') {
		const p = paramsFor(page, parseCountersParams, id);
		if (p) {
			const state = new CountersState({ api, events, params: p, settings: widget.settings });
			placed.push({ id, box, kind: 'counter', state });
		}
	} else if (widget.type === 'celebration') {
		const p = paramsFor(page, parseCelebrationParams, id);
		if (p) {
			const state = new CelebrationState({ api, events, params: p });
			placed.push({ id, box, kind: 'celebration', state });
		}
	} else if (widget.type === 'tip_goal') {
		const p = paramsFor(page, parseTipGoalParams, id);
		if (p) {
			const tracker = new TipGoalTracker({
				api,
				events,
				overlayId: overlay.id,
				widgetId: widget.id,
				debug: p.debug,
				// Reaching the goal fires this overlay's celebration widgets.
				onReached: () => void page.celebrateHere('tip goal reached')
			});
			placed.push({ id, box, kind: 'tip_goal', tracker, theme: p });
		}
	} else if (widget.type === 'media') await placeMedia(page, id, box);
	// Other types are left out; the preview lists them.
}

async function placeTts(page: OverlayPage, id: string, box: Box): Promise<void> {
	const { api, events, audio, obs, params, speech } = page;
	const player = await TtsPlayer.open({
		api,
		events,
		audio,
		obs,
		params,
		instance: `${page.overlay.id}-${id}`,
		speech,
		// A tier with celebrate=1: this overlay's celebration widgets, or, without one, every
		// celebration source of this OBS.
		celebrate: (reason) => (page.celebrateHere(reason) ? undefined : announceCelebration(reason))
	});
	page.placed.push({ id, box, kind: 'tts', player, theme: params });
}

async function placeMedia(page: OverlayPage, id: string, box: Box): Promise<void> {
	// Loaded only for overlays that have a media widget.
	const { createOverlayMedia } = await import('./overlay-media.ts');
	const m = await createOverlayMedia({
		api: page.api,
		events: page.events,
		obs: page.obs,
		search: location.search,
		instance: `${page.overlay.id}-${id}`
	});
	if (!m.ok) page.problems.push(...m.errors);
	else {
		page.unlockers.push(m.unlock);
		page.placed.push({
			id,
			box,
			kind: 'media',
			player: m.player,
			theme: m.theme,
			component: m.component
		});
	}
}

/** Starts the placed widgets on one realtime connection, and shows them. */
function start(page: OverlayPage): void {
	const { api, events, overlay, placed } = page;
	const parts = placed.map((w) =>
		w.kind === 'tts' || w.kind === 'media' ? w.player : w.kind === 'tip_goal' ? w.tracker : w.state
	);
	for (const part of parts) part.start();
	// Alert tiers of TTS sources elsewhere in this OBS fire this overlay's celebrations too.
	if (placed.some((w) => w.kind === 'celebration')) listenCelebrations(page.celebrateHere);
	events.subscribe({
		event: (e) => {
			// The streamer (or a tip-goal change) asked this overlay's browser source to reload.
			if (
				e.type === 'overlay.reload' &&
				(e.data.overlay_id === null || e.data.overlay_id === overlay.id)
			)
				location.reload();
		}
	});
	connectWidgets(
		api,
		events,
		parts,
		{ ...TTS_EVENTS, ...MEDIA_EVENTS, ...COUNTER_EVENTS, ...OVERLAY_EVENTS },
		{ widgets: placed }
	);
	mount(OverlayApp, {
		target,
		props: {
			overlay,
			widgets: placed,
			onUnlockAudio: () => {
				for (const unlock of page.unlockers) void unlock();
			}
		}
	});
}

void main();
