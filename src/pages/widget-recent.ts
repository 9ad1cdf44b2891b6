// /widget/recent?key=K: the latest tips and video requests as an OBS browser source (transparent).
import { mount } from 'svelte';
import { startSample } from './sample-page.ts';
import { startPage } from './start-page.ts';
import { connectLive, connectWidgets } from '../client/widget-page.ts';
import Recent from '../../widgets/recent/Recent.svelte';
import { parseRecentParams } from '../../widgets/recent/params.ts';
import { RecentState } from '../../widgets/recent/recent.svelte.ts';
import { sampleRecent } from '../../widgets/recent/sample.ts';
import { unreadList } from '../../widgets/shared/list-reads.svelte.ts';
import { MEDIA_EVENTS, TTS_EVENTS } from '../contract/events.ts';

const showErrors = (target: HTMLElement, paramErrors: string[]) =>
	mount(Recent, { target, props: { view: unreadList(), paramErrors } });

// sample=1: a few sample events, still: nothing connects or reads.
if (
	!startSample(parseRecentParams, showErrors, (params, target) =>
		mount(Recent, { target, props: { view: sampleRecent(params.limit), theme: params } })
	)
)
	startPage(parseRecentParams, showErrors, (params, api, events, target) => {
		const state = new RecentState({ api, events, limit: params.limit }).start();
		const table = { ...TTS_EVENTS, ...MEDIA_EVENTS };
		// Tips are listed as moderation decided them: the push channel says when a decision changed.
		connectWidgets(api, events, [state], table, { recent: state.view });
		connectLive(api, events, [state]);
		mount(Recent, { target, props: { view: state.view, theme: params } });
	});
