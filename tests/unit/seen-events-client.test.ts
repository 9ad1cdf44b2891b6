// The page's side of the events its reads name (src/client/api.ts, X-Seen-Event): after its
// realtime socket brought events, each read names the last eight of those at most SEEN_EVENT_MS
// old, so that the token endpoint answers it holding them (src/server/intake/page-reads.ts); a
// call that is not a read names none.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, SEEN_EVENT_MS } from '../../src/client/api.ts';
import * as routes from '../../src/contract/routes.ts';

function endpoint() {
	const sent: { method: string; seen: string | null }[] = [];
	const fetch = async (_input: string, init?: RequestInit): Promise<Response> => {
		sent.push({
			method: init?.method ?? 'GET',
			seen: new Headers(init?.headers).get('X-Seen-Event')
		});
		return Response.json({ counters: [], success: true });
	};
	return { sent, api: new ApiClient({ overlayKey: 'k'.repeat(20), fetch }) };
}

afterEach(() => vi.useRealTimers());

describe('the events a page’s reads name', () => {
	it('are the last eight its socket brought, for a while, and only on reads', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		const { sent, api } = endpoint();
		await api.request(routes.countersList);
		for (let i = 1; i <= 10; i++) api.sawEvent(`evt_${i}`);
		await api.request(routes.countersList);
		await api.request(routes.ttsStart, { orderId: 'tip_1725624000_aaaaaa' });
		vi.advanceTimersByTime(SEEN_EVENT_MS - 1);
		api.sawEvent('evt_11');
		await api.request(routes.countersList);
		vi.advanceTimersByTime(2);
		await api.request(routes.countersList);
		vi.advanceTimersByTime(SEEN_EVENT_MS);
		await api.request(routes.countersList);
		const eight = Array.from({ length: 8 }, (_, i) => `evt_${i + 3}`).join(',');
		expect(sent).toEqual([
			{ method: 'GET', seen: null },
			{ method: 'GET', seen: eight },
			{ method: 'POST', seen: null },
			{ method: 'GET', seen: [...eight.split(',').slice(1), 'evt_11'].join(',') },
			{ method: 'GET', seen: 'evt_11' },
			{ method: 'GET', seen: null }
		]);
	});
});
