// /preview?key=K: the streamer's control room in a normal browser.
import { mount } from 'svelte';
import ErrorCard from '../../widgets/shared/ErrorCard.svelte';
import Preview from '../../widgets/preview/Preview.svelte';
import { PreviewState } from '../../widgets/preview/preview.svelte.ts';
import { KEY_FORMAT } from '../contract/keys.ts';

const target = document.getElementById('app')!;
const key = new URLSearchParams(location.search).get('key') ?? '';

if (!KEY_FORMAT.test(key)) {
	mount(ErrorCard, {
		target,
		props: {
			title: 'This preview URL needs fixing',
			problems: ['key: missing or malformed; expected the overlay key that `npm start` prints'],
			hint: 'Open the preview URL printed by `npm start`.'
		}
	});
} else {
	const state = new PreviewState(key);
	mount(Preview, { target, props: { state } });
	void state.start();
	addEventListener('pagehide', () => state.close());
}
