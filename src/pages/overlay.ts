// /overlay/{overlayId}?key=K: every widget of one upstream overlay, at its resolution, on one
// realtime connection. Widgets whose type this build cannot show yet are left out.
import { mount } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { createHowlerAudioPort } from '../client/audio.ts';
import { openClaimMemory } from '../client/claim-memory.ts';
import { EventHub } from '../client/event-hub.ts';
import { createObsBridge } from '../client/obs.ts';
import { RealtimeConnection } from '../client/realtime.ts';
import { OVERLAY_ID } from '../contract/index.ts';
import OverlayApp from '../../widgets/overlay/OverlayApp.svelte';
import { SUPPORTED_TYPES, widgetBox } from '../../widgets/overlay/layout.ts';
import { parseTtsParams, ttsTheme } from '../../widgets/tts/params.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';

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
	const res = await api.request('overlayRead', { overlayId });
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
	const audio = createHowlerAudioPort();
	const obs = createObsBridge();
	const players: { id: string; box: ReturnType<typeof widgetBox>; player: TtsPlayer }[] = [];
	for (const widget of overlay.widgets) {
		if (!(SUPPORTED_TYPES as readonly string[]).includes(widget.type)) continue;
		const instance = `${overlay.id}-${widget.id}`;
		const memory = await openClaimMemory('tts', instance);
		const player = new TtsPlayer({ api, events, audio, obs, memory, params, instance });
		player.start();
		players.push({ id: widget.id, box: widgetBox(overlay, widget), player });
	}
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
	const realtime = new RealtimeConnection({
		api,
		onEvent: (e) => events.emit(e),
		onResync: () => events.resync(),
		onState: (state, detail) => {
			for (const p of players) p.player.setConnection(state, detail);
		}
	}).start();
	mount(OverlayApp, {
		target,
		props: {
			overlay,
			widgets: players,
			theme: ttsTheme(params),
			onUnlockAudio: () => void audio.unlock()
		}
	});
	(window as unknown as { __tok?: unknown }).__tok = { players, realtime, api };
	addEventListener('pagehide', () => {
		realtime.close();
		for (const p of players) p.player.destroy();
	});
}

void main();
