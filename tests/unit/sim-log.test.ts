// The simulator's log keeps its last entries, oldest first, whatever the number logged: what tests
// and the Chromium 103 observers read (src/sim/log.ts).
import { describe, expect, it } from 'vitest';
import { SimLog } from '../../src/sim/log.ts';

describe("the simulator's log", () => {
	it('keeps the last entries in order once more than it holds were logged', () => {
		const log = new SimLog(3);
		for (let i = 1; i <= 7; i++)
			if (i % 2) log.request({ method: 'GET', path: `/p${i}`, status: 200 });
			else log.event({ id: `evt_${i}`, type: 'tip.created' });
		expect(log.lastSeq).toBe(7);
		expect(log.since().map((e) => e.seq)).toEqual([5, 6, 7]);
		expect(log.since(5).map((e) => e.seq)).toEqual([6, 7]);
		expect(log.requests().map((e) => e.path)).toEqual(['/p5', '/p7']);
		expect(log.events('tip.created').map((e) => e.id)).toEqual(['evt_6']);
	});

	it('before it is full, keeps everything', () => {
		const log = new SimLog(5);
		log.oauth({ action: 'refresh_token', client_id: 'oc_1' });
		log.asset({ method: 'GET', path: '/audio/ord_1.wav', status: 200 });
		expect(log.since().map((e) => e.kind)).toEqual(['oauth', 'asset']);
		expect(log.oauthEntries('refresh_token')).toHaveLength(1);
	});
});
