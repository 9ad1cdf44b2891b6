// The claim memory across page reloads (src/client/claim-memory.ts): the order id, and whether it
// had played to its end, survive a reload through localStorage; anything else stored there reads
// as no memory at all.
import { afterEach, describe, expect, it } from 'vitest';
import { openClaimMemory, VolatileClaimMemory } from '../../src/client/claim-memory.ts';

class FakeStorage {
	readonly map = new Map<string, string>();
	getItem(k: string): string | null {
		return this.map.get(k) ?? null;
	}
	setItem(k: string, v: string): void {
		this.map.set(k, v);
	}
	removeItem(k: string): void {
		this.map.delete(k);
	}
}

const g = globalThis as { localStorage?: unknown };
afterEach(() => {
	delete g.localStorage;
});

describe('claim memory', () => {
	it('a stored claim and its played flag survive a reload (a new memory on the same storage)', async () => {
		const storage = new FakeStorage();
		g.localStorage = storage;
		const first = await openClaimMemory('tts', 'inst');
		first.save('tip_1_abc');
		let next = await openClaimMemory('tts', 'inst');
		expect([next.load(), next.played()]).toEqual(['tip_1_abc', false]);
		next.save('tip_1_abc', true);
		next = await openClaimMemory('tts', 'inst');
		expect([next.load(), next.played()]).toEqual(['tip_1_abc', true]);
		next.save(null);
		next = await openClaimMemory('tts', 'inst');
		expect([next.load(), next.played()]).toEqual([null, false]);
		expect(storage.map.size).toBe(0);
	});

	it('anything else in storage reads as no claim', async () => {
		const storage = new FakeStorage();
		g.localStorage = storage;
		for (const junk of ['', 'played:', 'tip 1', 'played:tip/1', '<script>', 'x'.repeat(129)]) {
			storage.setItem('tok:claim:media:i', junk);
			const m = await openClaimMemory('media', 'i');
			expect([m.load(), m.played()], junk).toEqual([null, false]);
		}
	});

	it('the volatile memory forgets the played flag with the claim', () => {
		const m = new VolatileClaimMemory();
		m.save('a', true);
		expect(m.played()).toBe(true);
		m.save('b');
		expect([m.load(), m.played()]).toEqual(['b', false]);
		m.save(null, true);
		expect([m.load(), m.played()]).toEqual([null, false]);
	});
});
