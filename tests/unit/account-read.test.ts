// GET /me kept beside the intake (src/server/intake/account.ts), against an upstream the test
// answers: read once for the credential however many ask at once (with the intake's socket open,
// taking no page's allowance: only a read made while it is down does), answered with the
// upstream's bytes after; read again for another
// credential, after forget(), and while the intake's socket is down.
import { describe, expect, it } from 'vitest';
import { AccountRead, type AccountUpstream } from '../../src/server/intake/account.ts';

const ME = {
	tenant: { id: 't_1', name: 'Demo', currency: 'EUR', currency_symbol: '€' },
	key: { id: 'key_1', name: 'Overlay', scopes: ['tts:read'] }
};

/** An upstream whose GET /me answers wait for `answer()`, and that counts them. */
class Upstream implements AccountUpstream {
	credential = 'tpk_first';
	calls = 0;
	readonly #waiting: ((res: Response) => void)[] = [];

	async realtimeCredential(): Promise<string | null> {
		return this.credential;
	}

	call(): Promise<Response> {
		this.calls += 1;
		return new Promise((resolve) => this.#waiting.push(resolve));
	}

	/** Answers the calls waiting: `status` with the account (or an error body). */
	answer(status = 200, body: unknown = ME): void {
		for (const resolve of this.#waiting.splice(0))
			resolve(Response.json(body, { status, headers: { 'ratelimit-remaining': '119' } }));
	}
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

function account(o: { live?: () => boolean } = {}) {
	const upstream = new Upstream();
	let charged = 0;
	const me = new AccountRead(upstream, o.live ?? (() => true));
	const read = () => me.read(() => void (charged += 1));
	return { upstream, me, read, charged: () => charged };
}

describe('the account kept beside the intake', () => {
	it('is read once however many ask at once, and answered with the upstream’s bytes after', async () => {
		const a = account();
		const reads = Array.from({ length: 5 }, a.read);
		await settled();
		a.upstream.answer();
		const answers = await Promise.all(reads);
		// The read that went upstream comes with its rate-limit headers; the others as kept.
		expect(answers[0].headers.get('ratelimit-remaining')).toBe('119');
		for (const res of [...answers, await a.read()]) {
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual(ME);
		}
		expect(a.upstream.calls).toBe(1);
		expect(a.charged()).toBe(0);
	});

	it('keeps no failed answer: the reads that waited for it go upstream themselves', async () => {
		const a = account();
		const reads = [a.read(), a.read()];
		await settled();
		a.upstream.answer(500, { error: 'down' });
		await settled();
		a.upstream.answer();
		expect((await Promise.all(reads)).map((r) => r.status)).toEqual([500, 200]);
		expect(a.upstream.calls).toBe(2);
		expect(a.charged()).toBe(0);
		expect(await (await a.read()).json()).toEqual(ME);
		expect(a.upstream.calls).toBe(2);
	});

	it('is read again for another credential, after forget(), and not kept for one changed meanwhile', async () => {
		const a = account();
		const first = a.read();
		await settled();
		a.upstream.answer();
		await first;
		a.upstream.credential = 'tpat_second';
		const second = a.read();
		await settled();
		a.upstream.credential = 'tpat_third';
		a.upstream.answer();
		await second;
		const third = a.read();
		await settled();
		a.upstream.answer();
		await third;
		expect(a.upstream.calls).toBe(3);
		await a.read();
		expect(a.upstream.calls).toBe(3);
		a.me.forget();
		const again = a.read();
		await settled();
		a.upstream.answer();
		await again;
		expect(a.upstream.calls).toBe(4);
	});

	it('goes upstream while the intake’s socket is down, on the allowance of the page it goes for', async () => {
		let live = true;
		const a = account({ live: () => live });
		const first = a.read();
		await settled();
		a.upstream.answer();
		await first;
		live = false;
		const down = a.read();
		await settled();
		a.upstream.answer(401, { error: 'invalid key', code: 'invalid_api_key' });
		expect((await down).status).toBe(401);
		expect(a.upstream.calls).toBe(2);
		expect(a.charged()).toBe(1);
	});
});
