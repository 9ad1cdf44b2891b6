// /dock?key=<control key>: the streamer's dock, for an OBS custom browser dock or a phone. Without
// a key it is the hosted dashboard's dock (control-page.ts).
import { mount } from 'svelte';
import Dock from '../../widgets/dock/Dock.svelte';
import { ControlClient, type DockCredential } from '../../widgets/dock/control-client.ts';
import type { OpenLive } from '../../widgets/dock/dock-live.ts';
import { DockState } from '../../widgets/dock/dock.svelte.ts';
import { LiveChannel } from '../client/live.ts';
import { startControlPage } from './control-page.ts';
import { retryRefusedKey } from './refused-key.ts';

/** The push channel (GET /control/live) read with the dock's own credential. */
const openLive =
	(client: ControlClient): OpenLive =>
	(onMessage, onState) => {
		const channel = new LiveChannel({
			api: client.api,
			onMessage,
			// A refused credential stops the dock anyway (its reads answer 401): down here.
			onState: (state) => onState(state === 'unauthorized' ? 'down' : state)
		}).start();
		return () => channel.close();
	};

function run(credential: DockCredential, target: HTMLElement): void {
	const client = new ControlClient(credential);
	// A refused credential stops the dock (its `refused` state); it is checked again now and then.
	retryRefusedKey(client.api);
	const dock = new DockState({ client, live: openLive(client) }).start();
	mount(Dock, {
		target,
		props: { dock, canRenewKey: 'key' in credential, renewed: location.hash === '#new-key' }
	});
	// A read-only handle for tests and diagnostics, as the widget pages have.
	(window as unknown as { __tok?: unknown }).__tok = { dock, realtime: dock.realtime };
	addEventListener('pagehide', () => dock.close());
}

startControlPage({
	name: 'dock',
	signIn:
		'Sign in on the dashboard, then open its dock again; or use the dock URL with your control key.',
	findUrl: 'Open the dock URL that `npm start` prints.',
	fixUrl: 'Open the dock URL that `npm start` prints, or the one the dashboard shows.',
	run
});
