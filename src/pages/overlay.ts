// /overlay/{overlayId}?key=K: every widget of one upstream overlay, at its resolution, on one
// realtime connection. Widgets whose type this build cannot show are left out. Each widget has its
// own merge of the stored settings (its kind's and this overlay's, under the URL), followed live.
import { mount } from 'svelte';
import { ApiClient, keyRefusal } from '../client/api.ts';
import { createAudioPort } from '../client/audio.ts';
import { EventHub } from '../client/event-hub.ts';
import { createObsBridge } from '../client/obs.ts';
import {
	announceCelebration,
	createSpeechAnnouncer,
	listenCelebrations
} from '../client/sound-bus.ts';
import type { ParamResult } from '../client/params.ts';
import { ignoresStoredSettings, PageSettings, type SettingsTaker } from '../client/settings.ts';
import { connectLive, connectWidgets } from '../client/widget-page.ts';
import {
	OVERLAY_ID,
	type Overlay,
	type OverlayWidget,
	type SettingsWidget
} from '../contract/index.ts';
import OverlayApp from '../../widgets/overlay/OverlayApp.svelte';
import { widgetBox, type Box } from '../../widgets/overlay/layout.ts';
import type { Placed } from '../../widgets/overlay/placed.ts';
import type { MediaParams } from '../../widgets/media/params.ts';
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
import { retryRefusedKey } from './refused-key.ts';
import { COUNTER_EVENTS, MEDIA_EVENTS, OVERLAY_EVENTS, TTS_EVENTS } from '../contract/events.ts';

const target = document.getElementById('app')!;
const overlayId = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const url = new URLSearchParams(location.search);
const parsed = parseTtsParams(url);

/** Under a refused key's card: what the page does meanwhile (refused-key.ts). */
const LATER =
	'This page checks the key again every few minutes; paste the new URL from `npm start` to come back at once.';

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
	const api = new ApiClient({ overlayKey: parsed.value.key });
	// From the first call on: a refused key stops the page, which checks it again now and then.
	retryRefusedKey(api);
	const settings = new PageSettings(api, !ignoresStoredSettings(url));
	// Read alongside the overlay: our endpoint, not the upstream.
	const settingsRead = settings.read();
	let res = await api.request(routes.overlayRead, { overlayId });
	// A 429 (the token endpoint's allowance, or a rate limit) is waited out, as it asks; not 429
	// too_many_attempts, which refuses the key (api.ts, keyRefusal).
	while (!res.ok && res.kind === 'http' && res.status === 429 && !keyRefusal(res)) {
		const wait = res.retryAfterMs;
		await new Promise((r) => setTimeout(r, wait));
		res = await api.request(routes.overlayRead, { overlayId });
	}
	if (!res.ok) {
		const refused = keyRefusal(res);
		if (refused || (res.kind === 'http' && res.status === 401))
			return fail(
				'The overlay key was refused',
				[refused?.final ? refused.error : 'The server did not accept the key in this URL.'],
				refused?.final ? undefined : LATER
			);
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
	await settingsRead;
	await new OverlayPage(settings, api, res.body.overlay).show();
}

/**
 * One loaded overlay: what its widgets share (one API client, event hub, audio port and OBS
 * bridge), and what placing them gathers (the widgets, what is wrong with the URL, what the
 * "unlock audio" click unlocks).
 */
class OverlayPage {
	readonly #settings: PageSettings;
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

	constructor(settings: PageSettings, api: ApiClient, overlay: Overlay) {
		this.#settings = settings;
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

	/**
	 * A widget's own parameters: the page's URL (with the widget's place in this overlay, `id`)
	 * over the stored settings of its kind and of this overlay; null when the URL is wrong. `follow`
	 * hands the widget the changes to come.
	 */
	#paramsFor<P>(
		kind: SettingsWidget,
		parse: (q: URLSearchParams) => ParamResult<P>,
		id?: string
	): { params: P; follow: (taker: SettingsTaker<P>) => void } | null {
		const own = id ? withPlace(url, this.#overlay.id, id) : url;
		const p = parse(own);
		if (!p.ok) {
			this.#problems.push(...p.errors);
			return null;
		}
		const s = this.#settings.widget(kind, own, parse, this.#overlay.id);
		return { params: s.initial(p.value), follow: (taker) => s.bind(taker) };
	}

	/** Places one widget of the overlay, or notes what is wrong with its parameters. */
	async #place(widget: OverlayWidget): Promise<void> {
		const api = this.#api;
		const events = this.#events;
		const box = widgetBox(this.#overlay, widget);
		const id = widget.id;
		if (widget.type === 'tts') await this.#placeTts(id, box);
		else if (widget.type === 'counter') {
			const p = this.#paramsFor('counters', parseCountersParams, id);
			if (p) {
				const { params } = p;
				const state = new CountersState({ api, events, params, settings: widget.settings });
				p.follow(state);
				this.#placed.push({ id, box, kind: 'counter', state });
			}
		} else if (widget.type === 'celebration') {
			const p = this.#paramsFor('celebration', parseCelebrationParams, id);
			if (p) {
				const state = new CelebrationState({ api, events, params: p.params });
				p.follow(state);
				this.#placed.push({ id, box, kind: 'celebration', state });
			}
		} else if (widget.type === 'tip_goal') this.#placeGoal(id, box);
		else if (widget.type === 'media') await this.#placeMedia(id, box);
		// Other types are left out; the preview lists them.
	}

	#placeGoal(id: string, box: Box): void {
		const p = this.#paramsFor('tip-goal', parseTipGoalParams, id);
		if (!p) return;
		const tracker = new TipGoalTracker({
			api: this.#api,
			events: this.#events,
			overlayId: this.#overlay.id,
			widgetId: id,
			debug: p.params.debug,
			theme: p.params,
			// Reaching the goal fires this overlay's celebration widgets.
			onReached: () => void this.#celebrateHere('tip goal reached')
		});
		p.follow(tracker);
		this.#placed.push({ id, box, kind: 'tip_goal', tracker });
	}

	async #placeTts(id: string, box: Box): Promise<void> {
		// The page's own URL: a TTS widget has no place parameters.
		const p = this.#paramsFor('tts', parseTtsParams);
		if (!p) return;
		const { params } = p;
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
		p.follow(player);
		this.#placed.push({ id, box, kind: 'tts', player });
	}

	async #placeMedia(id: string, box: Box): Promise<void> {
		// Loaded only for overlays that have a media widget.
		const { createOverlayMedia } = await import('./overlay-media.ts');
		let follow: ((taker: SettingsTaker<MediaParams>) => void) | undefined;
		const m = await createOverlayMedia({
			api: this.#api,
			events: this.#events,
			obs: this.#obs,
			instance: `${this.#overlay.id}-${id}`,
			paramsFor: (parse) => {
				const p = this.#paramsFor('media', parse);
				follow = p?.follow;
				return p?.params ?? null;
			}
		});
		if (!m) return;
		follow?.(m.player);
		this.#unlockers.push(m.unlock);
		this.#placed.push({ id, box, kind: 'media', player: m.player, component: m.component });
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
		// One push channel: the moderation decisions (TTS widgets) and the stored settings (all).
		connectLive(this.#api, events, parts);
		this.#settings.listen(events);
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
