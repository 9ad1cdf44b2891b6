// Read tickets (src/server/read-tickets.ts): a ticket is good once, for its streamer, until it
// expires, and only as it was made; what was used is remembered within a bound; the reads a
// streamer makes at priority are bounded too.
import { describe, expect, it } from 'vitest';
import { ReadTickets, TICKET_TTL_S } from '../../src/server/read-tickets.ts';

const KEY = new Uint8Array(32).fill(7);

function clocked(o: ConstructorParameters<typeof ReadTickets>[1] = {}) {
	const clock = { ms: 1_750_000_000_000 };
	const tickets = new ReadTickets(KEY, { now: () => clock.ms, ...o });
	return { clock, tickets };
}

describe('read tickets', () => {
	it('a fresh ticket of the streamer is good once', () => {
		const { tickets } = clocked();
		const t = tickets.issue('s_1');
		expect(t).toMatch(/^[0-9a-z]+\.[\w-]{22}\.[\w-]{22}$/);
		expect(tickets.redeem('s_1', t)).toBe(true);
		expect(tickets.redeem('s_1', t)).toBe(false);
		// Each ticket is its own: a second one is good after the first was used.
		expect(tickets.redeem('s_1', tickets.issue('s_1'))).toBe(true);
	});

	it('is refused once expired', () => {
		const { clock, tickets } = clocked();
		const early = tickets.issue('s_1');
		const late = tickets.issue('s_1');
		clock.ms += (TICKET_TTL_S - 1) * 1000;
		expect(tickets.redeem('s_1', early)).toBe(true);
		clock.ms += 1000;
		expect(tickets.redeem('s_1', late)).toBe(false);
	});

	it('is refused for another streamer, and by a process with another key', () => {
		const { clock, tickets } = clocked();
		expect(tickets.redeem('s_2', tickets.issue('s_1'))).toBe(false);
		const now = () => clock.ms;
		const other = new ReadTickets(new Uint8Array(32).fill(8), { now });
		expect(other.redeem('s_1', tickets.issue('s_1'))).toBe(false);
		// The same key (hosted instances): good there too, and once there.
		const twin = new ReadTickets(KEY, { now });
		const t = tickets.issue('s_1');
		expect(twin.redeem('s_1', t)).toBe(true);
		expect(twin.redeem('s_1', t)).toBe(false);
	});

	it('is refused altered in any part, or not a ticket at all', () => {
		const { tickets } = clocked();
		const t = tickets.issue('s_1');
		const [expiry, random, mac] = t.split('.');
		const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
		const later = (parseInt(expiry, 36) + 60).toString(36);
		for (const bad of [
			`${later}.${random}.${mac}`,
			`${expiry}.${flip(random)}.${mac}`,
			`${expiry}.${random}.${flip(mac)}`,
			`${expiry}.${random}`,
			`${t},${t}`,
			'',
			undefined
		])
			expect(tickets.redeem('s_1', bad)).toBe(false);
		// Untouched, it is still good: the altered copies did not use it.
		expect(tickets.redeem('s_1', t)).toBe(true);
	});

	it('remembers at most maxUsed used tickets, forgetting the oldest first', () => {
		const { tickets } = clocked({ maxUsed: 3 });
		const used = Array.from({ length: 4 }, () => tickets.issue('s_1'));
		for (const t of used) expect(tickets.redeem('s_1', t)).toBe(true);
		// The first was forgotten to make room for the fourth; the others are still remembered.
		expect(used.slice(1).map((t) => tickets.redeem('s_1', t))).toEqual([false, false, false]);
		expect(tickets.redeem('s_1', used[0])).toBe(true);
	});

	it('forgets used tickets once they expired: they are refused for their expiry all the same', () => {
		const { clock, tickets } = clocked({ maxUsed: 2 });
		const old = tickets.issue('s_1');
		expect(tickets.redeem('s_1', old)).toBe(true);
		clock.ms += TICKET_TTL_S * 1000;
		const [a, b] = [tickets.issue('s_1'), tickets.issue('s_1')];
		expect(tickets.redeem('s_1', a)).toBe(true);
		expect(tickets.redeem('s_1', b)).toBe(true);
		// The expired one, used first, made room, so `a` is still remembered.
		expect(tickets.redeem('s_1', a)).toBe(false);
		expect(tickets.redeem('s_1', old)).toBe(false);
	});

	it('bounds the reads at priority per streamer: a burst, then one every 5 s', () => {
		const { clock, tickets } = clocked();
		const takes = (n: number) =>
			Array.from({ length: n }, () => tickets.takePriority('s_1')).filter(Boolean).length;
		expect(takes(25)).toBe(20);
		expect(tickets.takePriority('s_2')).toBe(true);
		clock.ms += 5000;
		expect(takes(3)).toBe(1);
	});
});
