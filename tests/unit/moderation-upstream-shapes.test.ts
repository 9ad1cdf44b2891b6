// The token endpoint's moderation against upstream answers it cannot read (docs/upstream.md: parse
// leniently): a tip it cannot decide is never handed to a page as the upstream gave it, and an
// answer that is not JSON does not fail the dock's Reveal.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/server/http-error.ts';
import { Moderator } from '../../src/server/moderation/moderator.ts';
import type { CallerEnv } from '../../src/server/caller.ts';
import { moderationRoutes } from '../../src/server/routes/moderation.ts';
import { passThrough } from '../../src/server/routes/proxy.ts';
import type { UpstreamClient } from '../../src/server/upstream.ts';
import { moderationFile } from '../../src/server/moderation/store.ts';

const ORDER = 'tip_1725624000_aaaaaa';

/** An upstream whose every answer is `body` with status 200. */
const upstreamAnswering = (body: string) =>
	({ call: async () => new Response(body, { status: 200 }) }) as unknown as UpstreamClient;

describe('upstream answers moderation cannot read', () => {
	it('a start answered with a tip missing its name gives the page neither message nor audio', async () => {
		const moderator = new Moderator(moderationFile(null), () => {});
		const tip = { order_id: ORDER, message: 'raw words', tts_url: 'https://cdn.example.com/a.mp3' };
		const out = await moderator.rewrite(
			's',
			upstreamAnswering('{}'),
			'ttsStart',
			{ success: true, tip },
			'page'
		);
		expect(JSON.stringify(out)).not.toContain('raw words');
		expect(JSON.stringify(out)).not.toContain('a.mp3');
	});

	it('Reveal answers 404 when the upstream answers with something that is not JSON', async () => {
		const moderator = new Moderator(moderationFile(null), () => {});
		const app = new Hono<CallerEnv>();
		app.onError((err, c) => errorResponse(c, err));
		app.use('*', (c, next) => {
			c.set('caller', { streamer: 's', upstream: upstreamAnswering('<html>bad gateway</html>') });
			return next();
		});
		app.route('/', moderationRoutes(moderator));
		const res = await app.request(`/moderation/message?order_id=${ORDER}`);
		expect(res.status).toBe(404);
	});

	it('a tip answer that is not a JSON object is never handed on as it is', async () => {
		const raw = '[{"order_id":"tip_1_a","message":"raw words"}]';
		const answer = passThrough(new Response(raw, { status: 200 }), async (b) => b);
		await expect(answer).rejects.toThrow(/not a JSON object/);
	});

	it('keeps every tip of a queue whose items lack or add fields moderation does not read', async () => {
		const moderator = new Moderator(moderationFile(null), () => {});
		const items = [
			// Only what a decision needs; no amount, no dates, no audio.
			{ order_id: 'tip_1_a', name: 'Ana', message: 'hello' },
			// No message field at all, and fields this kit has never seen.
			{ order_id: 'tip_2_b', name: 'Ben', sparkle: { level: 3 }, amount: '5' },
			{ order_id: 'tip_3_c', name: 'Cy', message: null, tts_url: 'not a url' }
		];
		const out = await moderator.rewrite(
			's',
			upstreamAnswering('{}'),
			'ttsQueue',
			{ items, is_paused: false },
			'page'
		);
		expect((out.items as { order_id: string }[]).map((t) => t.order_id)).toEqual([
			'tip_1_a',
			'tip_2_b',
			'tip_3_c'
		]);
	});

	it('leaves out, and does not throw on, a queue item with no name to judge', async () => {
		const moderator = new Moderator(moderationFile(null), () => {});
		const items = [
			{ order_id: 'tip_1_a', message: 'no name' },
			42,
			null,
			{ order_id: 'tip_2_b', name: 'Ben', message: 'hi' }
		];
		const out = await moderator.rewrite(
			's',
			upstreamAnswering('{}'),
			'ttsQueue',
			{ items },
			'page'
		);
		expect((out.items as { order_id: string }[]).map((t) => t.order_id)).toEqual(['tip_2_b']);
		expect(JSON.stringify(out)).not.toContain('no name');
	});
});
