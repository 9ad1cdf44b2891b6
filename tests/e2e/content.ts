// The content that stretches the widgets, shared by the layout test and the screenshots: the
// longest title, name and messages, and the scenes built from them in the simulator (a goal at a
// percentage, twenty counters, a video with a long title).
import type { Page } from '@playwright/test';
import { demoVideos } from '../../src/sim/demo-videos.ts';
import type { Stack } from './fixtures.ts';

/** The demo's main overlay (1920x1080): it has the tip goal. */
export const MAIN = 'o_1a2b3c4d';
/** 80 characters. */
export const LONG_TITLE =
	'A brand new microphone, a camera, and a very comfortable chair for long streams';
export const LONG_NAME = 'Averyveryverylongname_25c';
const THANKS =
	'Thank you for the stream, this is a long message that goes on and on about the game. '.repeat(3);
/** A long message in words. */
export const LONG_MESSAGE = THANKS + 'The end.';
/** A long message with a word no line can hold. */
export const LONG_MESSAGE_UNBROKEN =
	THANKS + 'Supercalifragilisticexpialidocious_an_unbroken_word_with_no_spaces_in_it the end.';

/** Twenty counters in all (the demo has three). */
export function twentyCounters(stack: Stack): void {
	for (let i = 1; i <= 17; i++) stack.sim.control.model.createCounter(`counter_${i}`, i * 37);
}

/** The main overlay's goal, titled `title`, at `percent` of its target. */
export function goalAt(stack: Stack, percent: number, title = LONG_TITLE): void {
	const m = stack.sim.control.model;
	m.updateTipGoal(MAIN, { title, amount: 250 });
	m.addToTipGoal(MAIN, (250 * percent) / 100 - m.tipGoal(MAIN).current);
}

/** Queues the demo's countdown video under `title`, requested by the longest name. */
export function queueVideo(stack: Stack, title: string) {
	const demo = demoVideos.find((v) => v.file === '/demo/countdown.webm') ?? demoVideos[0];
	return stack.sim.control.model.enqueueMedia(
		{
			url: `${stack.sim.origin}${demo.file}`,
			title,
			thumbnail: `${stack.sim.origin}${demo.thumbnail}`,
			duration: demo.duration
		},
		LONG_NAME
	);
}

/** The opacity of the TTS alert card (null while there is none): `1` once it has come in. */
export function alertOpacity(page: Page): Promise<string | null> {
	return page.evaluate(() => {
		const card = document.querySelector('[data-testid=tts-alert]');
		return card ? getComputedStyle(card).opacity : null;
	});
}
