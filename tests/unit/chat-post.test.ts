// What each answer of the chat's POST /chat/messages means to the thanks sender
// (src/server/chat/post.ts): only an answer that proves the message was not posted is tried again;
// a post whose outcome no answer told is unknown (never posted again by the kit); the rest never.
import { describe, expect, it } from 'vitest';
import { postChat } from '../../src/server/chat/post.ts';
import { UpstreamUnavailable, type UpstreamClient } from '../../src/server/upstream.ts';

/** An upstream client whose chat answers `answer` (or throws it). */
const answering = (answer: () => Response) =>
	({ call: async () => answer() }) as unknown as UpstreamClient;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json', ...headers }
	});

const outcomeOf = async (answer: () => Response) =>
	postChat(answering(answer), 'Thanks Ada!', 0, () => 0.5);

describe('a chat answer', () => {
	it.each([
		['a 429 of the chat budget', () => json(429, { error: 'slow' }, { 'retry-after': '3' })],
		['a 429 of our own budget before sending', () => json(429, { error: 'spent' })],
		['a 409 bot_unavailable', () => json(409, { error: 'not yet', code: 'bot_unavailable' })],
		['a 502 gateway_unavailable', () => json(502, { error: 'down', code: 'gateway_unavailable' })],
		[
			'a connection refused (never sent)',
			() => {
				throw new UpstreamUnavailable('connect ECONNREFUSED 127.0.0.1:9', true);
			}
		]
	])('%s is tried again soon: the message was not posted', async (_, answer) => {
		expect(await outcomeOf(answer)).toMatchObject({ ok: false, retry: 'soon' });
	});

	it('a 429 waits as long as its Retry-After says', async () => {
		const o = await outcomeOf(() => json(429, { error: 'slow' }, { 'retry-after': '7' }));
		expect(o).toMatchObject({ retry: 'soon' });
		// Its seconds, and a little jitter so copies do not come back together.
		if (!o.ok && o.retry === 'soon') expect(Math.floor((o.waitMs ?? 0) / 1000)).toBe(7);
	});

	it.each([
		[
			'a timeout',
			() => {
				throw new UpstreamUnavailable('The operation was aborted due to timeout');
			}
		],
		[
			'a connection reset after sending',
			() => {
				throw new UpstreamUnavailable('socket hang up');
			}
		],
		['a bodiless 504', () => new Response(null, { status: 504 })],
		['a 502 without the chat code', () => json(502, { error: 'bad gateway' })],
		['a 500', () => json(500, { error: 'internal error' })],
		['a 503 with a code of its own', () => json(503, { error: 'busy', code: 'maintenance' })]
	])('%s leaves it unknown: it may have gone, and is never posted again', async (_, answer) => {
		const o = await outcomeOf(answer);
		expect(o).toMatchObject({ ok: false, retry: 'unknown', problem: { code: 'outcome_unknown' } });
		if (!o.ok) expect(o.problem.error).toMatch(/may have gone/);
	});

	it.each([
		['a 409 bot_disabled', () => json(409, { error: 'off', code: 'bot_disabled' }), 'bot_disabled'],
		['a 409 without a channel', () => json(409, { error: 'no channel', code: 'x' }), 'no_channel'],
		['a 401', () => json(401, { error: 'no', code: 'invalid_token' }), 'unauthorized'],
		[
			'a 403 missing_scope',
			() => json(403, { error: 'scope', code: 'missing_scope', required_scope: 'chat:write' }),
			'missing_scope'
		]
	])('%s waits for the streamer (it was refused: not posted)', async (_, answer, code) => {
		expect(await outcomeOf(answer)).toMatchObject({ retry: 'streamer', problem: { code } });
	});

	it('a 400 is never tried again', async () => {
		const o = await outcomeOf(() => json(400, { error: 'long', code: 'message_too_long' }));
		expect(o).toMatchObject({ retry: 'never', problem: { code: 'message_too_long' } });
	});

	it('a 200 is posted, whatever its body', async () => {
		expect(await outcomeOf(() => new Response('ok', { status: 200 }))).toEqual({ ok: true });
	});
});
