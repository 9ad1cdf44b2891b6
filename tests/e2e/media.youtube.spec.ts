// The media widget playing YouTube videos through a local stand-in of the IFrame Player API in
// real Chromium engines: the start offset and the referrer, and a video that may not be
// embedded.
import { eventually, expect, test, textOf } from './fixtures.ts';
import {
	releasePath,
	ok,
	ready,
	startsOf,
	finishesOf,
	releasesOf,
	fakeYoutube
} from './media.helpers.ts';

test('a YouTube video plays through the IFrame API from its start offset, with a referrer YouTube accepts', async ({
	page,
	stack
}) => {
	await fakeYoutube(page, { dQw4w9WgXcQ: { duration: 4 } });
	await page.goto(stack.url('/widget/media', { volume: 0.5 }));
	await ready(page);
	const item = stack.sim.control.model.enqueueMedia(
		{
			url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
			start_time: 1,
			title: 'A song',
			duration: 4
		},
		'Rick fan'
	);
	await eventually(() => finishesOf(stack, item.order_id).length === 1, 30_000);
	const [rec] = await page.evaluate(
		() => (window as unknown as { __yt: Record<string, unknown>[] }).__yt
	);
	expect(rec).toMatchObject({
		id: 'dQw4w9WgXcQ',
		referrerPolicy: 'strict-origin-when-cross-origin',
		origin: stack.origin,
		start: 1,
		enablejsapi: '1',
		volume: 50,
		destroyed: true
	});
	const played = finishesOf(stack, item.order_id)[0].t - startsOf(stack, item.order_id)[0].t;
	expect(played).toBeGreaterThanOrEqual(3000 - 300);
	expect(stack.calls('POST', releasePath)).toEqual([]);
});

test('a YouTube video that may not be embedded is released with the reason, and the queue goes on', async ({
	page,
	stack
}) => {
	await fakeYoutube(page, { aaaaaaaaaaa: { error: 150 }, bbbbbbbbbbb: { duration: 2 } });
	await page.goto(stack.url('/widget/media', { debug: 1 }));
	await ready(page);
	const blocked = stack.sim.control.model.enqueueMedia(
		{ url: 'https://youtu.be/aaaaaaaaaaa', title: 'Blocked' },
		'A'
	);
	const fine = stack.sim.control.model.enqueueMedia(
		{ url: 'https://www.youtube.com/shorts/bbbbbbbbbbb', title: 'Fine' },
		'B'
	);
	await eventually(() => finishesOf(stack, fine.order_id).length === 1, 30_000);
	expect(startsOf(stack, blocked.order_id)).toHaveLength(1);
	expect(releasesOf(stack, blocked.order_id).filter(ok)).toHaveLength(1);
	expect(finishesOf(stack, blocked.order_id)).toEqual([]);
	expect(await textOf(page, '[data-testid=media-debug]')).toContain('YouTube error 150');
});
