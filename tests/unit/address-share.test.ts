// The calling address's budget shared by every streamer and instance (src/core/address-share.ts):
// claims never wait, reads of everyone together keep to what the claims leave, one streamer's
// readers cannot take the others' share, and an instance spends only its part between two syncs.
import { describe, expect, it } from 'vitest';
import { AddressShare, type OthersSpend } from '../../src/core/address-share.ts';

const POLICY = { limit: 240, reserve: 0.1, claimShare: 0.5, windowMs: 60_000 };

/** Reads of `streamer` sent while allowed, at most `n`: how many went. */
function readAll(share: AddressShare, streamer: string, n: number, now: number): number {
	let sent = 0;
	while (sent < n && share.mayRead(streamer, now)) {
		share.spent(streamer, 'read', now);
		sent += 1;
	}
	return sent;
}

const others = (o: Partial<OthersSpend>): OthersSpend => ({
	claims: 0,
	reads: 0,
	readsBy: new Map(),
	instances: 2,
	...o
});

describe('the address budget', () => {
	it('reads stop where the claims’ half and the reserve begin, and claims still go', () => {
		const share = new AddressShare(POLICY);
		// 240 a minute: 24 kept, 120 for claims, 96 for the reads of everyone.
		expect(readAll(share, 's_a', 500, 0)).toBe(96);
		for (let i = 0; i < 120; i++) share.spent('s_a', 'claim', 1000);
		expect(share.snapshot(1000)).toMatchObject({ claims: 120, reads: 96, readCeiling: 96 });
		// The window slides: a minute after the reads, they may go again.
		expect(share.mayRead('s_a', 59_999)).toBe(false);
		expect(share.mayRead('s_a', 60_000)).toBe(true);
	});

	it('claims past their half leave the reads less', () => {
		const share = new AddressShare(POLICY);
		for (let i = 0; i < 150; i++) share.spent('s_a', 'claim', 0);
		// 240 - 24 - 150.
		expect(readAll(share, 's_b', 500, 0)).toBe(66);
	});

	it('past half the reads, a streamer over an even share waits and the others read', () => {
		const share = new AddressShare(POLICY);
		expect(readAll(share, 's_flood', 500, 0)).toBe(96);
		// Alone, the flooding streamer may take it all; a second streamer's first read now finds
		// nothing left in this window, but in the next the flood is held at an even share.
		const next = 60_000;
		expect(readAll(share, 's_flood', 48, next)).toBe(48);
		expect(readAll(share, 's_quiet', 10, next)).toBe(10);
		// 58 read: the flood has 48 of a share of 48 (96 over two readers).
		expect(share.mayRead('s_flood', next)).toBe(false);
		expect(readAll(share, 's_quiet', 500, next)).toBe(38);
		expect(share.snapshot(next).topReaders).toEqual([
			{ streamer: 's_flood', reads: 48 },
			{ streamer: 's_quiet', reads: 48 }
		]);
	});

	it('counts what the other instances sent, and spends only its part until the next sync', () => {
		const share = new AddressShare(POLICY);
		share.synced(others({ reads: 60, claims: 10, readsBy: new Map([['s_b', 60]]) }), 0);
		// 96 - 60 = 36 left, for two instances: 18 each until the next sync.
		expect(readAll(share, 's_a', 500, 0)).toBe(18);
		expect(share.mayRead('s_a', 0)).toBe(false);
		// A sync that shows the other spent nothing more: this one may take half of what is left.
		share.synced(others({ reads: 60, claims: 10, readsBy: new Map([['s_b', 60]]) }), 1000);
		expect(readAll(share, 's_a', 500, 1000)).toBe(9);
		// Claims never wait for a sync.
		share.spent('s_a', 'claim', 1000);
		expect(share.snapshot(1000)).toMatchObject({ claims: 11, reads: 87, instances: 2 });
	});

	it('tells a sync the seconds that changed since the last one', () => {
		const share = new AddressShare(POLICY);
		share.spent('s_a', 'claim', 1_000);
		share.spent('s_a', 'read', 1_500);
		share.spent('s_b', 'read', 2_100);
		expect(share.ownSince(0)).toEqual([
			{ second: 1, streamer: '', claims: 1, reads: 0 },
			{ second: 1, streamer: 's_a', claims: 0, reads: 1 },
			{ second: 2, streamer: 's_b', claims: 0, reads: 1 }
		]);
		// Written at 2.2 s: only the second still under way may change.
		expect(share.ownSince(2_200)).toEqual([{ second: 2, streamer: 's_b', claims: 0, reads: 1 }]);
	});
});
