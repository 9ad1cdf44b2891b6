// The start-up /dock and /editor share: the control key of the URL (`?key=`), or without one the
// hosted dashboard's signed-in session (GET /control/session), whose CSRF token stands in for the
// key with the session cookie. What cannot start shows a card saying what to open instead.
import { mount } from 'svelte';
import ErrorCard from '../../widgets/shared/ErrorCard.svelte';
import { openSession, type ControlCredential } from '../client/control.ts';
import { CONTROL_KEY } from '../contract/control.ts';

interface ControlPage {
	/** The page's name in its cards: `dock`, `editor`. */
	name: string;
	/** What to do when nobody is signed in. */
	signIn: string;
	/** Where its URL with the key is found (no dashboard here, or a malformed key). */
	findUrl: string;
	/** A malformed key: where a good URL is found, when it differs from findUrl. */
	fixUrl?: string;
	run(credential: ControlCredential, target: HTMLElement): void;
}

export function startControlPage(page: ControlPage): void {
	const target = document.getElementById('app')!;
	const problem = (title: string, problems: string[], hint: string) =>
		void mount(ErrorCard, { target, props: { title, problems, hint } });
	const key = new URLSearchParams(location.search).get('key');
	if (key === null) void hosted(page, target, problem);
	else if (!CONTROL_KEY.test(key))
		problem(
			`This ${page.name} URL needs fixing`,
			['key: malformed; expected the control key (16 to 128 of A-Z a-z 0-9 _ -)'],
			page.fixUrl ?? page.findUrl
		);
	else page.run({ key }, target);
}

async function hosted(
	page: ControlPage,
	target: HTMLElement,
	problem: (title: string, problems: string[], hint: string) => void
): Promise<void> {
	const session = await openSession();
	if (session.ok) return page.run({ csrf: session.csrf }, target);
	if (session.why === 'signed-out')
		return problem(
			'Sign in on the dashboard',
			[`This ${page.name} has no control key and no signed-in session.`],
			page.signIn
		);
	if (session.why === 'no-dashboard')
		return problem(
			`This ${page.name} URL needs its key`,
			['key: missing; expected the control key'],
			page.findUrl
		);
	problem(
		`The ${page.name} could not start`,
		[`The session could not be read: ${session.error}.`],
		'Reload the page in a moment.'
	);
}
