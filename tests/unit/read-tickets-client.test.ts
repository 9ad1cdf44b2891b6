// The page's side of read tickets (src/client/api.ts): the tickets the token endpoint hands out in
// X-Read-Ticket are kept (the latest four) and each is sent once, by the queue reads a claim
// runner makes (tts-queue.ts, media-queue.ts) while its copy claims, never by any other call.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api.ts';
import { mediaQueuePort } from '../../src/client/media-queue.ts';
import { ttsQueuePort } from '../../src/client/tts-queue.ts';
import * as routes from '../../src/contract/routes.ts';
import { queueTip } from './contract-examples.ts';

/** A token endpoint that answers every call, handing out `give()` in X-Read-Ticket. */
function endpoint(give: (path: string) => string | null) {
	const sent: { path: string; ticket: string | null }[] = [];
	const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
		const headers = new Headers(init?.headers);
		sent.push({ path: input, ticket: headers.get('X-Read-Ticket') });
		const body = input.endsWith('/token')
			? { token: 't', ws_url: 'wss://rt.example.com/ws', expires_at: '2030-01-01T00:00:00Z' }
			: input.endsWith('/queue')
				? {
						is_paused: false,
						currently_playing: false,
						current_order_id: null,
						visible: true,
						items: []
					}
				: input.includes('/history')
					? { tips: [], has_more: false, next_cursor: null }
					: { success: true, tip: queueTip() };
		const ticket = give(input);
		return new Response(JSON.stringify(body), {
			headers: {
				'content-type': 'application/json',
				...(ticket ? { 'X-Read-Ticket': ticket } : {})
			}
		});
	};
	return { sent, api: new ApiClient({ overlayKey: 'k'.repeat(20), fetch }) };
}

describe('read tickets on the page', () => {
	it('the two of POST /token go with the TTS and media queue reads, once each', async () => {
		const { sent, api } = endpoint((p) => (p === '/token' ? 'ta,tb' : null));
		await api.mintToken();
		const tts = ttsQueuePort(api);
		const media = mediaQueuePort(api, () => {});
		expect((await tts.snapshot()).ok).toBe(true);
		expect((await media.snapshot()).ok).toBe(true);
		expect((await tts.snapshot()).ok).toBe(true);
		expect(sent.map((s) => s.ticket)).toEqual([null, 'ta', 'tb', null]);
	});

	it('a claim’s ticket goes with the next queue read; other reads send none', async () => {
		let n = 0;
		const { sent, api } = endpoint((p) => (p.endsWith('/start') ? `claim-${++n}` : null));
		const tts = ttsQueuePort(api);
		await tts.start('tip_1725624000_aaaaaa');
		await api.request(routes.ttsHistory, {}, { query: { limit: 5 } });
		await tts.snapshot();
		await tts.snapshot();
		expect(sent.map((s) => s.ticket)).toEqual([null, null, 'claim-1', null]);
	});

	it('a spectator’s queue reads (claim=never) send no ticket: the live view answers them', async () => {
		const { sent, api } = endpoint((p) => (p === '/token' ? 'ta,tb' : null));
		await api.mintToken();
		let claims = false;
		const tts = ttsQueuePort(api, () => claims);
		const media = mediaQueuePort(
			api,
			() => {},
			() => claims
		);
		await tts.snapshot();
		await media.snapshot();
		// The same page claiming again (its stored `claim` changed): its tickets are still at hand.
		claims = true;
		await tts.snapshot();
		expect(sent.map((s) => s.ticket)).toEqual([null, null, null, 'ta']);
	});

	it('keeps the latest four', async () => {
		const { sent, api } = endpoint((p) => (p === '/token' ? 'a,b' : null));
		for (let i = 0; i < 3; i++) await api.mintToken();
		const tts = ttsQueuePort(api);
		for (let i = 0; i < 5; i++) await tts.snapshot();
		expect(sent.slice(3).map((s) => s.ticket)).toEqual(['a', 'b', 'a', 'b', null]);
	});
});
