// The dock's reads (GET /control/api/..., src/server/routes/control.ts) answered from the live view
// as the pages' are: the queues, the recent lists, tipping, the counters and a tip goal cost the
// upstream nothing, and each answer is what the same read forwarded to the upstream answers,
// moderated for the dock alike (a held tip shown held with its rule, a removed one left out),
// where a page's read of the same view gets the page's presentation.
import { describe, expect, it } from 'vitest';
import { VIEW_PARTS } from '../../src/core/view/parts.ts';
import { MemoryPushChannel } from '../../src/server/live/push-channel.ts';
import { moderationFile } from '../../src/server/moderation/store.ts';
import { api, readyTip, until } from '../fixtures/sim.ts';
import {
	CONTROL_KEY,
	dockRead,
	GOAL_OVERLAY,
	read,
	served,
	serveOn,
	upstreamCalls
} from './view-reads.setup.ts';

/** The dock's reads the view answers, and the upstream path each one reads. */
const DOCK_READS: [string, string][] = [
	['/tts/queue', '/tts/queue'],
	['/tts/history?limit=10', '/tts/history'],
	['/media/queue', '/media/queue'],
	['/media/history?limit=10', '/media/history'],
	['/tipping', '/tipping'],
	['/counters', '/counters'],
	[`/overlays/${GOAL_OVERLAY}/tip-goal`, `/overlays/${GOAL_OVERLAY}/tip-goal`]
];

describe('the dock’s reads', { timeout: 30_000 }, () => {
	it('are answered from the view at no upstream read, moderated for the dock as forwarded ones are', async () => {
		// One store of decisions for both servers below: a tip is decided once, as it is upstream.
		const moderation = moderationFile(null, new MemoryPushChannel());
		const { sim, app } = await served({ moderation });
		const rules = await fetch(app.origin + '/control/moderation', {
			method: 'PUT',
			headers: { 'x-control-key': CONTROL_KEY, 'content-type': 'application/json' },
			body: JSON.stringify({
				words: [
					{ text: 'secret', outcome: 'hold' },
					{ text: 'spam', outcome: 'remove' }
				]
			})
		});
		expect(rules.status).toBe(200);
		const played = await readyTip(sim, { name: 'Ada', message: 'a secret for you' });
		for (const step of ['start', 'finish'])
			expect((await api(sim, 'POST', `/tts/${played.order_id}/${step}`)).status).toBe(200);
		const held = await readyTip(sim, { name: 'Bo', message: 'another secret' });
		const removed = await readyTip(sim, { name: 'Cy', message: 'spam and spam' });
		const plain = await readyTip(sim, { name: 'Di', message: 'hello there' });
		const video = await api(sim, 'POST', '/media/queue', { body: { url: 'https://youtu.be/abc' } });
		expect(video.status).toBe(201);
		const view = app.intake!.view;
		await until(() => view.tts.items.length === 3 && view.ttsHistory.rows.length === 1);
		await until(() => view.media.items.length === 1);
		// The tips came within a second of the first answers: the goals and the leaderboard are read
		// again once that second is over (LiveView.rereadAt). Counted from when the view is settled.
		await until(() => VIEW_PARTS.every((p) => view.sure(p) && !app.intake!.pending(p)));

		const before = DOCK_READS.map(([, up]) => upstreamCalls(sim, 'GET', up));
		const answers = [];
		for (let i = 0; i < 3; i++)
			answers.push(await Promise.all(DOCK_READS.map(([path]) => dockRead(app, path))));
		for (const round of answers) for (const a of round) expect(a.status).toBe(200);
		expect(DOCK_READS.map(([, up]) => upstreamCalls(sim, 'GET', up))).toEqual(before);

		const queue = answers.at(-1)![0].body.items as { order_id: string; moderation: object }[];
		expect(queue.map((t) => t.order_id)).toEqual([held.order_id, plain.order_id]);
		expect(queue[0].moderation).toMatchObject({
			outcome: 'hold',
			rule: { kind: 'word', text: 'secret' }
		});
		expect(answers.at(-1)![1].body.tips[0].moderation).toMatchObject({ rule: { text: 'secret' } });
		// A page's read of the same view: the page's presentation, no rule.
		const page = (await read(app, '/tts/queue')).body.items[0];
		expect(page.moderation).toEqual({ outcome: 'hold', message: 'hidden' });
		await until(() => !view.tts.items.some((t) => t.order_id === removed.order_id));

		const forwarding = await serveOn(sim, { intake: false, moderation });
		for (const [i, [path]] of DOCK_READS.entries())
			expect(answers.at(-1)![i].body, path).toEqual((await dockRead(forwarding, path)).body);
	});
});
