// /editor?key=<control key>: the settings editor on its own page (docs/settings.md), linked from
// the dock and printed by `npm start`. Without a key it is the hosted dashboard's editor
// (control-page.ts), as the dock is.
import { mount } from 'svelte';
import EditorPage from '../../widgets/settings/EditorPage.svelte';
import { EditorState } from '../../widgets/settings/editor.svelte.ts';
import { SettingsClient } from '../../widgets/settings/settings-client.ts';
import { ControlApi, type ControlCredential } from '../client/control.ts';
import { overlaysList } from '../contract/routes.ts';
import { startControlPage } from './control-page.ts';
import { retryRefusedKey } from './refused-key.ts';

function run(credential: ControlCredential, target: HTMLElement): void {
	// The overlays, read as the preview reads them, through the control routes (/control/api).
	const { api } = new ControlApi(credential);
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

const url = 'Open the editor URL that `npm start` prints, or the Settings link of the dock.';
startControlPage({
	name: 'editor',
	signIn: 'Sign in on the dashboard, then open Settings again.',
	findUrl: url,
	run
});
