// /widget/celebration?key=K: confetti or fireworks when the upstream celebrates this overlay or
// widget (or every overlay), as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { EventHub } from '../client/event-hub.ts';
import { RealtimeConnection } from '../client/realtime.ts';
import Celebration from '../../widgets/celebration/Celebration.svelte';
import { CelebrationState } from '../../widgets/celebration/celebration.svelte.ts';
import { parseCelebrationParams } from '../../widgets/celebration/params.ts';

const target = document.getElementById('app')!;
const parsed = parseCelebrationParams(location.search);

if (!parsed.ok) {
	mount(Celebration, { target, props: { paramErrors: parsed.errors } });
} else {
	const params = parsed.value;
	const api = new ApiClient({ overlayKey: params.key });
	const events = new EventHub();
	const state = new CelebrationState({ api, events, params });
	state.start();
	const realtime = new RealtimeConnection({
		api,
		onEvent: (e) => events.emit(e),
		onResync: () => events.resync(),
		onState: (s, detail) => state.setConnection(s, detail)
	}).start();
	mount(Celebration, { target, props: { model: state } });
	// For tests and diagnostics: read-only views of what runs on this page.
	(window as unknown as { __tok?: unknown }).__tok = { celebration: state, realtime, api };
	addEventListener('pagehide', () => {
		realtime.close();
		state.destroy();
	});
}
