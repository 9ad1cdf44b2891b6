// Read tickets through the token endpoint against the real simulator: something replays a source's
// own GETs with all its headers (its overlay key, its address behind the load balancer, even the
// read ticket it sent) until the read allowance is spent; the source's next queue read, with a
// fresh ticket from its POST /token or its last claim, is answered all the same and sent upstream
// as a claim, while the replays are plain reads that never receive a ticket.
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_LIMITS } from '../../src/core/read-allowance.ts';
import { BudgetedUpstreamClient, UpstreamBudget } from '../../src/server/upstream-budget.ts';
import { UpstreamClient } from '../../src/server/upstream.ts';
import { simsPerTest, until, type Sim } from '../fixtures/sim.ts';
import { send, simUpstream, tokenEndpoint, type SendOptions } from '../fixtures/token-endpoint.ts';

const start = simsPerTest();
const TICKET = 'x-read-ticket';
const ticketsOf = (res: Response) => res.headers.get(TICKET)?.split(',') ?? [];

/** A source's request as the load balancer hands it on: one address, whatever the client. */
const source = (ticket?: string): SendOptions => ({
	client: 'balancer',
	headers: ticket ? { [TICKET]: ticket } : {}
});

async function readyTip(sim: Sim) {
	const tip = sim.control.createTip({ name: 'Viewer', amount: 5, message: 'hi' });
	await until(() => sim.control.model.tts.find(tip.order_id)?.tts_url != null);
	return tip.order_id;
}

describe('read tickets', { timeout: 60_000 }, () => {
	it('a flood replaying a source’s reads spends the allowance; the source’s ticketed queue read still goes', async () => {
		const sim = await start({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
		const { app } = tokenEndpoint(simUpstream(sim));
		const minted = await send(app, 'POST', '/token', source());
		expect(minted.status).toBe(200);
		const [t1, t2] = ticketsOf(minted);
		expect(t2).toBeDefined();

		// The source's first read after connecting: answered with a ticket for the next one.
		const first = await send(app, 'GET', '/api/tts/queue', source(t1));
		expect(first.status).toBe(200);
		expect(ticketsOf(first)).toHaveLength(1);

		// The replays: the same request again and again, the used ticket and all.
		const { burst } = DEFAULT_READ_LIMITS.address;
		const replays = await Promise.all(
			Array.from({ length: burst + 10 }, () => send(app, 'GET', '/api/tts/queue', source(t1)))
		);
		expect(replays.filter((r) => r.status === 200)).toHaveLength(burst);
		const refused = replays.filter((r) => r.status === 429);
		expect(refused).toHaveLength(10);
		expect(await refused[0].json()).toMatchObject({ code: 'too_many_reads' });
		for (const r of replays) expect(r.headers.get(TICKET)).toBeNull();
		// Nor does a read without a ticket, answered or not.
		const plain = await send(app, 'GET', '/api/media/queue', source());
		expect(plain.status).toBe(429);
		expect(plain.headers.get(TICKET)).toBeNull();

		// The source's own reads: the second ticket of its connect, then the one each answer brings.
		let ticket = t2;
		for (const path of ['/api/media/queue', '/api/tts/queue', '/api/tts/queue']) {
			const read = await send(app, 'GET', path, source(ticket));
			expect(read.status).toBe(200);
			[ticket] = ticketsOf(read);
			expect(ticket).toBeDefined();
		}
		// A claim's answer carries one too, and it lets the read after the claim go.
		const orderId = await readyTip(sim);
		const claim = await send(app, 'POST', `/api/tts/${orderId}/start`, source());
		expect(claim.status).toBe(200);
		const [afterClaim] = ticketsOf(claim);
		const reread = await send(app, 'GET', '/api/tts/queue', source(afterClaim));
		expect(reread.status).toBe(200);
		expect(
			((await reread.json()) as { items: { order_id: string }[] }).items.map((t) => t.order_id)
		).toContain(orderId);
		// Replayed, even that ticket is nothing more than a plain read (and the allowance is spent).
		const replayed = await send(app, 'GET', '/api/tts/queue', source(afterClaim));
		expect(replayed.status).toBe(429);
		expect(replayed.headers.get(TICKET)).toBeNull();
		// A fresh ticket buys a queue read only: any other read is plain.
		const [spare] = ticketsOf(await send(app, 'POST', `/api/tts/${orderId}/finish`, source()));
		expect((await send(app, 'GET', '/api/me', source(spare))).status).toBe(429);
	});

	it('a ticketed queue read goes upstream as a claim: it never waits behind reads held for the budget', async () => {
		// The budget of read-flood.test.ts: spent by reads down to what the claims keep.
		const sim = await start({ perKeyPerMinute: 10, perIpPerMinute: 100_000, rateWindowMs: 3000 });
		const key = sim.control.addKey({ name: 'Token endpoint' });
		const upstream = simUpstream(sim, key.value);
		const budget = new UpstreamBudget({
			policy: {
				perIp: 100_000,
				perAuthorization: 10,
				reserve: 0.1,
				claimShare: 0.5,
				windowMs: 60_000
			}
		});
		const client = new BudgetedUpstreamClient(budget, 'streamer', () => upstream);
		const { app } = tokenEndpoint(upstream, { upstream: client });
		const [ticket] = ticketsOf(await send(app, 'POST', '/token', source()));
		let remaining = Infinity;
		while (remaining > 2) {
			const res = await send(app, 'GET', '/api/me');
			remaining = Number(res.headers.get('RateLimit-Remaining'));
		}
		let plainDone = false;
		const plain = send(app, 'GET', '/api/tts/queue', source()).then((r) => {
			plainDone = true;
			return r;
		});
		await until(() => budget.budgetSnapshot().queued.reads === 1);
		const ticketed = await send(app, 'GET', '/api/tts/queue', source(ticket));
		expect(ticketed.status).toBe(200);
		expect(plainDone).toBe(false);
		expect(budget.budgetSnapshot()).toMatchObject({ heldClaims: 0, queued: { reads: 1 } });
		// The plain read is answered once the budget lets reads go again.
		expect((await plain).status).toBe(200);
	});

	it('a ticket of another streamer is not honoured; its own streamer’s still is', async () => {
		const sim = await start({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
		const upstream = new UpstreamClient(() => simUpstream(sim));
		const streamers: Record<string, string> = {
			'key-of-a-0123456789': 's_a',
			'key-of-b-0123456789': 's_b'
		};
		const { app } = tokenEndpoint(simUpstream(sim), {
			resolveKey: async (key) => (streamers[key] ? { upstream, streamer: streamers[key] } : null),
			// Two reads per streamer, then none for a long while.
			readLimits: { key: { burst: 2, perS: 0.001 }, address: { burst: 1000, perS: 1000 } }
		});
		const as = (key: string, ticket?: string) => ({ ...source(ticket), key });
		const [a, b] = Object.keys(streamers);
		const [ofA] = ticketsOf(await send(app, 'POST', '/token', as(a)));
		const [ofB] = ticketsOf(await send(app, 'POST', '/token', as(b)));
		for (const key of [a, b])
			for (let i = 0; i < 2; i++) await send(app, 'GET', '/api/tts/queue', as(key));
		expect((await send(app, 'GET', '/api/tts/queue', as(b))).status).toBe(429);
		// A's ticket with B's key: a plain read of B's, refused like any other.
		const stolen = await send(app, 'GET', '/api/tts/queue', as(b, ofA));
		expect(stolen.status).toBe(429);
		expect(stolen.headers.get(TICKET)).toBeNull();
		// Each streamer's own ticket goes.
		expect((await send(app, 'GET', '/api/tts/queue', as(b, ofB))).status).toBe(200);
		expect((await send(app, 'GET', '/api/tts/queue', as(a, ofA))).status).toBe(200);
	});
});
