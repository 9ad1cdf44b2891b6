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
import { connectLive, connectWidgets } from '../client/widget-page.ts';
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

/** Loads the overlay this page shows, then shows it, or a card saying what went wrong. */
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
	let res = await api.request(routes.overlayRead, { overlayId });
	// A 429 (the token endpoint's allowance, or a rate limit) is waited out, as it asks.
	while (!res.ok && res.kind === 'http' && res.status === 429) {
		const wait = res.retryAfterMs;
		await new Promise((r) => setTimeout(r, wait));
		res = await api.request(routes.overlayRead, { overlayId });
	}
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
	await new OverlayPage(params, api, res.body.overlay).show();
}

/**
 * One loaded overlay: what its widgets share (one API client, event hub, audio port and OBS
 * bridge), and what placing them gathers (the widgets, what is wrong with the URL, what the
 * "unlock audio" click unlocks).
 */
class OverlayPage {
	readonly #params: TtsParams;
	readonly #api: ApiClient;
	readonly #overlay: Overlay;
	readonly #events = new EventHub();
	readonly #audio = createAudioPort();
	readonly #obs = createObsBridge();
	// The TTS widgets tell media players (this overlay's and other sources') when a tip is read.
	readonly #speech = createSpeechAnnouncer();
	readonly #placed: Placed[] = [];
	readonly #problems: string[] = [];
	readonly #unlockers: (() => unknown)[] = [() => this.#audio.unlock()];

	constructor(params: TtsParams, api: ApiClient, overlay: Overlay) {
		this.#params = params;
		this.#api = api;
		this.#overlay = overlay;
	}

	/** Places every widget, then starts them and shows them, or shows what is wrong with the URL. */
	async show(): Promise<void> {
		for (const widget of this.#overlay.widgets) await this.#place(widget);
		if (this.#problems.length)
			return fail(
				'This overlay URL needs fixing',
				[...new Set(this.#problems)],
				'The README lists every parameter.'
			);
		this.#start();
	}

	/** Fires this overlay's celebration widgets; false when it has none. */
	#celebrateHere = (reason: string): boolean => {
		let fired = false;
		for (const w of this.#placed)
			if (w.kind === 'celebration') {
				w.state.fire(reason);
				fired = true;
			}
		return fired;
	};

	/** A widget's own parameters: the page's, with its place in this overlay; null when wrong. */
	#paramsFor<P>(parse: (q: URLSearchParams) => ParamResult<P>, id: string): P | null {
		const p = parse(withPlace(location.search, this.#overlay.id, id));
		if (!p.ok) this.#problems.push(...p.errors);
		return p.ok ? p.value : null;
	}

	/** Places one widget of the overlay, or notes what is wrong with its parameters. */
	async #place(widget: OverlayWidget): Promise<void> {
		const api = this.#api;
		const events = this.#events;
		const box = widgetBox(this.#overlay, widget);
		const id = widget.id;
		if (widget.type === 'tts') await this.#placeTts(id, box);
		else if (widget.type === 'counter') {
			const p = this.#paramsFor(parseCountersParams, id);
			if (p) {
				const state = new CountersState({ api, events, params: p, settings: widget.settings });
				this.#placed.push({ id, box, kind: 'counter', state });
			}
		} else if (widget.type === 'celebration') {
			const p = this.#paramsFor(parseCelebrationParams, id);
			if (p) {
				const state = new CelebrationState({ api, events, params: p });
				this.#placed.push({ id, box, kind: 'celebration', state });
			}
		} else if (widget.type === 'tip_goal') {
			const p = this.#paramsFor(parseTipGoalParams, id);
			if (p) {
				const tracker = new TipGoalTracker({
					api,
					events,
					overlayId: this.#overlay.id,
					widgetId: widget.id,
					debug: p.debug,
					// Reaching the goal fires this overlay's celebration widgets.
					onReached: () => void this.#celebrateHere('tip goal reached')
				});
				this.#placed.push({ id, box, kind: 'tip_goal', tracker, theme: p });
			}
		} else if (widget.type === 'media') await this.#placeMedia(id, box);
		// Other types are left out; the preview lists them.
	}

	async #placeTts(id: string, box: Box): Promise<void> {
		const params = this.#params;
		const player = await TtsPlayer.open({
			api: this.#api,
			events: this.#events,
			audio: this.#audio,
			obs: this.#obs,
			params,
			instance: `${this.#overlay.id}-${id}`,
			speech: this.#speech,
			// A tier with celebrate=1: this overlay's celebration widgets, or, without one, every
			// celebration source of this OBS.
			celebrate: (reason) => (this.#celebrateHere(reason) ? undefined : announceCelebration(reason))
		});
		this.#placed.push({ id, box, kind: 'tts', player, theme: params });
	}

	async #placeMedia(id: string, box: Box): Promise<void> {
		// Loaded only for overlays that have a media widget.
		const { createOverlayMedia } = await import('./overlay-media.ts');
		const m = await createOverlayMedia({
			api: this.#api,
			events: this.#events,
			obs: this.#obs,
			search: location.search,
			instance: `${this.#overlay.id}-${id}`
		});
		if (!m.ok) this.#problems.push(...m.errors);
		else {
			this.#unlockers.push(m.unlock);
			this.#placed.push({
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
	#start(): void {
		const events = this.#events;
		const overlay = this.#overlay;
		const placed = this.#placed;
		const parts = placed.map((w) =>
			w.kind === 'tts' || w.kind === 'media'
				? w.player
				: w.kind === 'tip_goal'
					? w.tracker
					: w.state
		);
		for (const part of parts) part.start();
		// Alert tiers of TTS sources elsewhere in this OBS fire this overlay's celebrations too.
		if (placed.some((w) => w.kind === 'celebration')) listenCelebrations(this.#celebrateHere);
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
			this.#api,
			events,
			parts,
			{ ...TTS_EVENTS, ...MEDIA_EVENTS, ...COUNTER_EVENTS, ...OVERLAY_EVENTS },
			{ widgets: placed }
		);
		// One push channel for the page's TTS widgets, which obey the moderation decisions.
		if (placed.some((w) => w.kind === 'tts')) connectLive(this.#api, events, parts);
		mount(OverlayApp, {
			target,
			props: {
				overlay,
				widgets: placed,
				onUnlockAudio: () => {
					for (const unlock of this.#unlockers) void unlock();
				}
			}
		});
	}
}

void main();
