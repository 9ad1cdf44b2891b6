// The preview page's state: what the streamer sees while setting up. It reads through the token
// endpoint like any widget, re-reads queues only when an event says they changed, and drives the
// demo buttons. It never claims anything: its overlay frames run with claim=never.
import type {
	KnownEvent,
	Me,
	MediaQueueBody,
	Overlay,
	TtsQueueBody
} from '../../src/contract/index.ts';
import { ApiClient } from '../../src/client/api.ts';
import { probeAutoplay } from '../../src/client/autoplay.ts';
import { EventHub } from '../../src/client/event-hub.ts';
import { RealtimeConnection, type RealtimeState } from '../../src/client/realtime.ts';
import { classifyMedia } from '../../src/core/media-source.ts';
import * as routes from '../../src/contract/routes.ts';
import { EVENT_CATALOG } from '../../src/contract/events.ts';
import { openSession } from '../../src/client/control.ts';
import { EditorState, type CredentialSource } from '../settings/editor.svelte.ts';
import { SettingsClient } from '../settings/settings-client.ts';
import { DemoChat } from './demo-chat.svelte.ts';

export interface EventRow {
	id: string;
	type: string;
	at: number;
	summary: string;
}

const MAX_EVENTS = 15;

function summarize(e: KnownEvent): string {
	const d = e.data as Record<string, unknown>;
	const tip = (d.tip ?? d.media ?? d.counter) as Record<string, unknown> | undefined;
	if (tip?.name && typeof tip.value === 'number') return `${tip.name} = ${tip.value}`;
	if (tip?.name) return `${tip.name}${tip.amount != null ? ` (${tip.amount})` : ''}`;
	if (tip?.donor_name) return `${tip.donor_name}: ${tip.video_title ?? tip.media_url}`;
	if (typeof d.order_id === 'string') return d.order_id;
	if ('overlay_id' in d)
		return `overlay ${d.overlay_id ?? 'all'}${d.widget_id ? `, widget ${d.widget_id}` : ''}`;
	return '';
}

/** What the TTS sample panels (ThemeGallery, AlertTiers) take from the preview page. */
export interface TtsSampleProps {
	/** A page URL with the overlay key and extra parameters (PreviewState.url). */
	url: (path: string, extra?: Record<string, string>) => string;
	/** Puts the panel's parameters in the Settings section's form (the TTS widget's). */
	onuse?: (values: Record<string, string>) => void;
}

export class PreviewState {
	/** hosted: one streamer's control room in hosted mode (a test tip only; no simulator faults). */
	mode = $state<'live' | 'demo' | 'hosted' | null>(null);
	me = $state<Me | null>(null);
	overlays = $state<Overlay[]>([]);
	widgetPages = $state<string[]>([]);
	tts = $state<TtsQueueBody | null>(null);
	media = $state<MediaQueueBody | null>(null);
	events = $state<EventRow[]>([]);
	/** Claims on a media item dropped without finishing, per order id, seen since the page opened. */
	mediaReleases = $state<Record<string, number>>({});
	connection = $state<RealtimeState>('connecting');
	connectionDetail = $state('');
	/** The result of the last demo button, for the status line. */
	notice = $state('');
	unauthorized = $state(false);
	/**
	 * false: the frames are silent spectators (claim=never) and leave every alert to OBS. true: the
	 * streamer clicked "enable audio" and the frames read tips aloud like an OBS source would
	 * (claim=always); the claim protocol still gives each tip to one reader, OBS or this tab.
	 */
	listening = $state(false);
	/** Set when the browser still refused sound after the click (e.g. a site setting). */
	audioBlocked = $state(false);
	/** The Settings section's editor, once the mode says how Save gets the control credential. */
	settings = $state<EditorState | null>(null);
	/** Demo mode: what the simulator's chat bot said (demo-chat.svelte.ts). */
	chat = $state.raw<DemoChat | null>(null);

	private readonly api: ApiClient;
	private readonly hub = new EventHub();
	private realtime: RealtimeConnection | null = null;
	private rereads: Partial<Record<'tts' | 'media', ReturnType<typeof setTimeout>>> = {};

	constructor(readonly key: string) {
		this.api = new ApiClient({ overlayKey: key });
	}

	async start(): Promise<void> {
		const health = await fetch('/healthz')
			.then((r) => r.json())
			.catch(() => null);
		this.mode = health?.mode ?? null;
		const me = await this.api.request(routes.me);
		// Only a refused overlay key stops the page; a 401 of OAuth (not connected yet) does not.
		if (!me.ok && me.kind === 'http' && me.status === 401 && me.code === 'bad_overlay_key') {
			this.unauthorized = true;
			return;
		}
		if (me.ok) this.me = me.body;
		this.settings = new EditorState(
			new SettingsClient({ overlayKey: this.key }),
			credentialSource(this.mode),
			sessionStorage
		);
		void this.settings.load();
		const overlays = await this.api.request(routes.overlaysList);
		if (overlays.ok) this.overlays = overlays.body.overlays;
		void this.findWidgetPages();
		if (this.mode === 'demo') this.chat = new DemoChat(this.api, this.key).start();
		this.hub.subscribe({
			event: (e) => this.onEvent(e),
			resync: () => {
				this.reread('tts');
				this.reread('media');
			}
		});
		this.realtime = new RealtimeConnection({
			api: this.api,
			events: EVENT_CATALOG,
			onEvent: (e) => this.hub.emit(e),
			onResync: () => this.hub.resync(),
			onState: (state, detail) => {
				this.connection = state;
				this.connectionDetail = detail;
				if (state === 'unauthorized') this.unauthorized = true;
			}
		}).start();
	}

	url(path: string, extra: Record<string, string> = {}): string {
		const q = new URLSearchParams({ key: this.key, ...extra });
		return `${location.origin}${path}?${q}`;
	}

	async demo(action: string): Promise<void> {
		this.notice = `${action}…`;
		const res = await fetch(`/demo/${action}`, {
			method: 'POST',
			headers: { 'x-overlay-key': this.key }
		}).catch(() => null);
		if (!res) this.notice = `${action}: failed (no answer)`;
		else if (res.ok) this.notice = `${action}: done`;
		else this.notice = `${action}: failed (${(await reasonOf(res)) ?? res.status})`;
	}

	/**
	 * Called from the click on "enable audio": the click is the user gesture browsers want, and the
	 * same-origin frames inherit it when they reload as readers. A silent probe tells whether the
	 * browser really allows sound now.
	 */
	async enableAudio(): Promise<void> {
		const allowed = await probeAutoplay();
		this.audioBlocked = allowed === false;
		if (!this.audioBlocked) this.listening = true;
	}

	/** Back to silent spectator frames; OBS reads everything. */
	silence(): void {
		this.listening = false;
	}

	/** The URL a preview frame loads for a page: a reader while listening, else a spectator. */
	frameUrl(path: string): string {
		return this.url(path, { claim: this.listening ? 'always' : 'never' });
	}

	close(): void {
		this.realtime?.close();
		this.chat?.close();
		for (const t of Object.values(this.rereads)) clearTimeout(t);
	}

	private onEvent(e: KnownEvent): void {
		this.events = [
			{ id: e.id, type: e.type, at: Date.now(), summary: summarize(e) },
			...this.events
		].slice(0, MAX_EVENTS);
		if (e.type.startsWith('queue.tts.') || e.type.startsWith('tip.')) this.reread('tts');
		if (e.type.startsWith('queue.media.')) this.reread('media');
		if (e.type === 'queue.media.released')
			this.mediaReleases[e.data.order_id] = (this.mediaReleases[e.data.order_id] ?? 0) + 1;
	}

	/**
	 * Why a queued video may not play: an unsupported address (decided from the URL, as the player
	 * does), or claims released without finishing (the player's debug=1 panel names the reason).
	 */
	mediaNote(item: { order_id: string; media_url: string; platform: string }): string | null {
		const source = classifyMedia(item.media_url, item.platform);
		if (source.kind === 'unsupported') return `will be released: ${source.reason}`;
		const n = this.mediaReleases[item.order_id] ?? 0;
		if (n > 0)
			return `released ${n}× without playing: a player could not play it (debug=1 on the media widget shows why); skip or remove it`;
		return null;
	}

	/** Events say a queue changed: read it once after a burst settles (no polling). */
	private reread(queue: 'tts' | 'media'): void {
		if (this.rereads[queue]) return;
		this.rereads[queue] = setTimeout(async () => {
			this.rereads[queue] = undefined;
			if (queue === 'tts') {
				const r = await this.api.request(routes.ttsQueue);
				if (r.ok) this.tts = r.body;
			} else {
				const r = await this.api.request(routes.mediaQueue);
				if (r.ok) this.media = r.body;
			}
		}, 250);
	}

	private async findWidgetPages(): Promise<void> {
		const types = ['tts', 'media', 'tip-goal', 'counters', 'celebration', 'recent', 'leaderboard'];
		const found = await Promise.all(
			types.map(async (t) => ((await fetch(`/widget/${t}`).catch(() => null))?.ok ? t : null))
		);
		this.widgetPages = found.filter((t): t is string => t !== null);
	}
}

/**
 * How the preview's settings editor gets the control credential to save: the signed-in
 * dashboard's session in hosted mode, else the control key, asked once for the tab.
 */
function credentialSource(mode: PreviewState['mode']): CredentialSource {
	if (mode !== 'hosted') return { kind: 'key' };
	return {
		kind: 'session',
		open: async () => {
			const session = await openSession();
			if (session.ok) return { csrf: session.csrf };
			return {
				error:
					session.why === 'signed-out'
						? 'Saving needs you signed in on the dashboard in this browser: sign in there, then save again.'
						: `Saving needs the dashboard's session, which could not be read: ${session.error}.`
			};
		}
	};
}

/** The refusal's own words (`error` of its JSON body, e.g. "tipping is closed"), if it has them. */
async function reasonOf(res: Response): Promise<string | null> {
	const body: unknown = await res.json().catch(() => null);
	const error = (body as { error?: unknown } | null)?.error;
	return typeof error === 'string' ? error : null;
}
