// /dock?key=<control key>: the streamer's dock, for an OBS custom browser dock or a phone. Without
// a key it is the hosted dashboard's dock: the signed-in session's CSRF token (GET /control/session)
// stands in for the key, with the session cookie.
import { mount } from 'svelte';
import ErrorCard from '../../widgets/shared/ErrorCard.svelte';
import Dock from '../../widgets/dock/Dock.svelte';
import {
	CONTROL_KEY,
	ControlClient,
	openSession,
	type DockCredential
} from '../../widgets/dock/control-client.ts';
import type { OpenLive } from '../../widgets/dock/dock-live.ts';
import { DockState } from '../../widgets/dock/dock.svelte.ts';
import { LiveChannel } from '../client/live.ts';
import { retryRefusedKey } from './refused-key.ts';

const target = document.getElementById('app')!;
const key = new URLSearchParams(location.search).get('key');

function problem(title: string, problems: string[], hint: string): void {
	mount(ErrorCard, { target, props: { title, problems, hint } });
}

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

function run(credential: DockCredential): void {
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

async function hosted(): Promise<void> {
	const session = await openSession();
	if (session.ok) return run({ csrf: session.csrf });
	switch (session.why) {
		case 'signed-out':
			return problem(
				'Sign in on the dashboard',
				['This dock has no control key and no signed-in session.'],
				'Sign in on the dashboard, then open its dock again; or use the dock URL with your control key.'
			);
		case 'no-dashboard':
			return problem(
				'This dock URL needs its key',
				['key: missing; expected the control key'],
				'Open the dock URL that `npm start` prints.'
			);
		default:
			return problem(
				'The dock could not start',
				[`The session could not be read: ${session.error}.`],
				'Reload the page in a moment.'
			);
	}
}

if (key === null) void hosted();
else if (!CONTROL_KEY.test(key))
	problem(
		'This dock URL needs fixing',
		['key: malformed; expected the control key (16 to 128 of A-Z a-z 0-9 _ -)'],
		'Open the dock URL that `npm start` prints, or the one the dashboard shows.'
	);
else run({ key });
