// /editor?key=<control key>: the settings editor on its own page (docs/settings.md), linked from
// the dock and printed by `npm start`. Without a key it is the hosted dashboard's editor: the
// signed-in session's CSRF token (GET /control/session) stands in for the key, as in the dock.
import { mount } from 'svelte';
import ErrorCard from '../../widgets/shared/ErrorCard.svelte';
import EditorPage from '../../widgets/settings/EditorPage.svelte';
import { EditorState } from '../../widgets/settings/editor.svelte.ts';
import { SettingsClient, type ControlCredential } from '../../widgets/settings/settings-client.ts';
import { CONTROL_KEY, credentialHeaders, openSession } from '../../widgets/dock/control-client.ts';
import { ApiClient } from '../client/api.ts';
import { overlaysList } from '../contract/routes.ts';
import { retryRefusedKey } from './refused-key.ts';

const target = document.getElementById('app')!;
const key = new URLSearchParams(location.search).get('key');

function problem(title: string, problems: string[], hint: string): void {
	mount(ErrorCard, { target, props: { title, problems, hint } });
}

function run(credential: ControlCredential): void {
	// The overlays, read as the preview reads them, through the control routes (/control/api).
	const api = new ApiClient({ credential: credentialHeaders(credential), baseUrl: '/control' });
	const client = new SettingsClient({
		control: credential,
		onKeyRefused: (refusal) => api.reportKeyRefused(refusal)
	});
	const editor = new EditorState(client, { kind: 'none' });
	// A refused credential is checked again now and then (GET /control/settings). When it works
	// again the page reloads, unless that would drop changes not saved yet: then it reads again.
	retryRefusedKey(api, () => (editor.hasUnsaved ? void editor.load() : location.reload()));
	const listOverlays = async () => {
		const res = await api.request(overlaysList);
		return res.ok ? res.body.overlays : [];
	};
	const back =
		'key' in credential
			? { href: `/dock?key=${encodeURIComponent(credential.key)}`, label: 'Dock' }
			: { href: '/', label: 'Dashboard' };
	mount(EditorPage, { target, props: { editor, listOverlays, back } });
	// A read-only handle for tests and diagnostics, as the other pages have.
	(window as unknown as { __tok?: unknown }).__tok = { editor };
}

async function hosted(): Promise<void> {
	const session = await openSession();
	if (session.ok) return run({ csrf: session.csrf });
	if (session.why === 'signed-out')
		return problem(
			'Sign in on the dashboard',
			['This editor has no control key and no signed-in session.'],
			'Sign in on the dashboard, then open Settings again.'
		);
	if (session.why === 'no-dashboard')
		return problem(
			'This editor URL needs its key',
			['key: missing; expected the control key'],
			'Open the editor URL that `npm start` prints, or the Settings link of the dock.'
		);
	problem(
		'The editor could not start',
		[`The session could not be read: ${session.error}.`],
		'Reload the page in a moment.'
	);
}

if (key === null) void hosted();
else if (!CONTROL_KEY.test(key))
	problem(
		'This editor URL needs fixing',
		['key: malformed; expected the control key (16 to 128 of A-Z a-z 0-9 _ -)'],
		'Open the editor URL that `npm start` prints, or the Settings link of the dock.'
	);
else run({ key });
