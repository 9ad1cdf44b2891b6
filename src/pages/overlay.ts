// /overlay/{overlayId}?key=K: every widget of one upstream overlay, at its resolution, on one
// realtime connection. Widgets whose type this build cannot show are left out.
import { mount } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { createAudioPort } from '../client/audio.ts';
import { EventHub } from '../client/event-hub.ts';
import { createObsBridge } from '../client/obs.ts';
import {
	announceCelebration,
	createSpeechAnnouncer,
	listenCelebrations
} from '../client/sound-bus.ts';
import type { ParamResult } from '../client/params.ts';
import { connectWidgets } from '../client/widget-page.ts';
import { OVERLAY_ID } from '../contract/index.ts';
import OverlayApp from '../../widgets/overlay/OverlayApp.svelte';
import { widgetBox } from '../../widgets/overlay/layout.ts';
import type { Placed } from '../../widgets/overlay/placed.ts';
import { CelebrationState } from '../../widgets/celebration/celebration.svelte.ts';
import { parseCelebrationParams } from '../../widgets/celebration/params.ts';
import { CountersState } from '../../widgets/counters/counters.svelte.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { withPlace } from '../../widgets/shared/place-params.ts';
import { parseTipGoalParams } from '../../widgets/tip-goal/params.ts';
import { TipGoalTracker } from '../../widgets/tip-goal/tip-goal.svelte.ts';
import { parseTtsParams } from '../../widgets/tts/params.ts';
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
	if (!OVERLAY_ID.test(overlayId))
		return fail('This overlay URL needs fixing', [
			`"${overlayId}" is not an overlay id (o_ + 8 hex)`
		]);
	if (!parsed.ok)
		return fail(
			'This overlay URL needs fixing',
			parsed.errors,
			'Edit the URL in the browser source properties. The README lists every parameter.'
		);
	const params = parsed.value;
	const api = new ApiClient({ overlayKey: params.key });
	const res = await api.request(routes.overlayRead, { overlayId });
	if (!res.ok) {
		if (res.kind === 'http' && res.status === 401)
			return fail('The overlay key was refused', [
				'The server did not accept the key in this URL.'
			]);
		if (res.kind === 'http' && res.status === 403)
			return fail('The API key cannot read overlays', [
				'The upstream API key of the token endpoint lacks the overlays:manage scope.'
			]);
		if (res.kind === 'http' && res.status === 404)
			return fail('No such overlay', [`The upstream has no overlay ${overlayId}.`]);
		return fail('The overlay could not be loaded', [
			res.kind === 'http'
				? `The server answered ${res.status}.`
				: 'The server could not be reached.'
		]);
	}
	const overlay = res.body.overlay;
	const events = new EventHub();
	const audio = createAudioPort();
	const obs = createObsBridge();
	const placed: Placed[] = [];
	const problems: string[] = [];
	// The TTS widgets tell media players (this overlay's and other sources') when a tip is read.
	const speech = createSpeechAnnouncer();
	const unlockers: (() => unknown)[] = [() => audio.unlock()];
	const celebrateHere = (reason: string): boolean => {
		let fired = false;
		for (const w of placed)
			if (w.kind === 'celebration') {
				w.state.fire(reason);
				fired = true;
			}
		return fired;
	};
	/** A widget's own parameters: the page's, with its place in this overlay; null when wrong. */
	const paramsFor = <P>(parse: (q: URLSearchParams) => ParamResult<P>, id: string): P | null => {
		const p = parse(withPlace(location.search, overlay.id, id));
		if (!p.ok) problems.push(...p.errors);
		return p.ok ? p.value : null;
	};
	for (const widget of overlay.widgets) {
		const box = widgetBox(overlay, widget);
		const id = widget.id;
		if (widget.type === 'tts') {
			const player = await TtsPlayer.open({
				api,
				events,
				audio,
				obs,
				params,
				instance: `${overlay.id}-${widget.id}`,
				speech,
				// A tier with celebrate=1: this overlay's celebration widgets, or, without one, every
				// celebration source of this OBS.
				celebrate: (reason) => (celebrateHere(reason) ? undefined : announceCelebration(reason))
			});
			placed.push({ id, box, kind: 'tts', player, theme: params });
		} else if (widget.type === 'counter') {
			const p = paramsFor(parseCountersParams, id);
			if (p) {
				const state = new CountersState({ api, events, params: p, settings: widget.settings });
				placed.push({ id, box, kind: 'counter', state });
			}
		} else if (widget.type === 'celebration') {
			const p = paramsFor(parseCelebrationParams, id);
			if (p) {
				const state = new CelebrationState({ api, events, params: p });
				placed.push({ id, box, kind: 'celebration', state });
			}
		} else if (widget.type === 'tip_goal') {
			const p = paramsFor(parseTipGoalParams, id);
			if (p) {
				const tracker = new TipGoalTracker({
					api,
					events,
					overlayId: overlay.id,
					widgetId: widget.id,
					debug: p.debug,
					// Reaching the goal fires this overlay's celebration widgets.
					onReached: () => void celebrateHere('tip goal reached')
				});
				placed.push({ id, box, kind: 'tip_goal', tracker, theme: p });
			}
		} else if (widget.type === 'media') {
			// Loaded only for overlays that have a media widget.
			const { createOverlayMedia } = await import('./overlay-media.ts');
			const m = await createOverlayMedia({
				api,
				events,
				obs,
				search: location.search,
				instance: `${overlay.id}-${widget.id}`
			});
			if (!m.ok) problems.push(...m.errors);
			else {
				unlockers.push(m.unlock);
				placed.push({
					id,
					box,
					kind: 'media',
					player: m.player,
					theme: m.theme,
					component: m.component
				});
			}
		}
		// Other types are left out; the preview lists them.
	}
	if (problems.length)
		return fail(
			'This overlay URL needs fixing',
			[...new Set(problems)],
			'The README lists every parameter.'
		);
	const parts = placed.map((w) =>
		w.kind === 'tts' || w.kind === 'media' ? w.player : w.kind === 'tip_goal' ? w.tracker : w.state
	);
	for (const part of parts) part.start();
	// Alert tiers of TTS sources elsewhere in this OBS fire this overlay's celebrations too.
	if (placed.some((w) => w.kind === 'celebration')) listenCelebrations(celebrateHere);
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
				for (const unlock of unlockers) void unlock();
			}
		}
	});
}

void main();
