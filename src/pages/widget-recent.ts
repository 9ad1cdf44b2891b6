// /widget/recent?key=K: the latest tips and video requests as an OBS browser source (transparent).
import { mount } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { EventHub } from '../client/event-hub.ts';
import { connectWidgets } from '../client/widget-page.ts';
import Recent from '../../widgets/recent/Recent.svelte';
import { parseRecentParams, recentTheme } from '../../widgets/recent/params.ts';
import { RecentState } from '../../widgets/recent/recent.svelte.ts';
import { MEDIA_EVENTS, TTS_EVENTS } from '../contract/events.ts';

const target = document.getElementById('app')!;
const parsed = parseRecentParams(location.search);

if (!parsed.ok) {
	const view = { status: 'connecting', statusDetail: '', rows: [], loaded: false, currency: null };
	mount(Recent, { target, props: { view: view as never, paramErrors: parsed.errors } });
} else {
	const params = parsed.value;
	const api = new ApiClient({ overlayKey: params.key });
	const events = new EventHub();
	const state = new RecentState({ api, events, limit: params.limit }).start();
	connectWidgets(api, events, [state], { ...TTS_EVENTS, ...MEDIA_EVENTS }, { recent: state.view });
	mount(Recent, { target, props: { view: state.view, theme: recentTheme(params) } });
}
