// The dock's client (widgets/dock/control-client.ts) over a fake fetch: the control credential
// goes in its own header and never as the overlay key, every call goes to /control, and a refused
// credential stops the dock instead of being retried.
import { describe, expect, it, vi } from 'vitest';
import { openSession } from '../../src/client/control.ts';
import { ControlClient } from '../../widgets/dock/control-client.ts';

const KEY = 'ctl_0123456789abcdef';

function fakeFetch(answer: (url: string, init: RequestInit) => [number, unknown]) {
	const calls: { url: string; headers: Record<string, string>; body?: string }[] = [];
	const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
		calls.push({
			url,
			headers: init.headers as Record<string, string>,
			body: init.body as string | undefined
		});
		const [status, body] = answer(url, init);
		return new Response(JSON.stringify(body), { status });
	});
	return { fetch, calls };
}

describe('the dock client', () => {
	it('sends the control key as X-Control-Key to /control, never as the overlay key', async () => {
		const f = fakeFetch(() => [200, { accepting: false }]);
		const client = new ControlClient({ key: KEY }, f.fetch);
		const res = await client.read('tipping');
		expect(res).toMatchObject({
			ok: true,
			read: { snapshot: 'tipping', body: { accepting: false } }
		});
		expect(f.calls[0].url).toBe('/control/api/tipping');
		expect(f.calls[0].headers['X-Control-Key']).toBe(KEY);
		expect(f.calls[0].headers['X-Overlay-Key']).toBeUndefined();
	});

	it("sends the dashboard session's CSRF token instead of a key", async () => {
		const f = fakeFetch(() => [200, { outcome: 'done', message: 'skipped' }]);
		const client = new ControlClient({ csrf: 'csrf-token' }, f.fetch);
		await client.act('tts-skip', 'tip_1_aa');
		expect(f.calls[0].url).toBe('/control/actions/tts-skip');
		expect(f.calls[0].headers['X-CSRF-Token']).toBe('csrf-token');
		expect(f.calls[0].headers['X-Control-Key']).toBeUndefined();
		expect(JSON.parse(f.calls[0].body!)).toEqual({ order_id: 'tip_1_aa' });
	});

	it('reports a refused key once per call, and turns a refused token mint into a stop', async () => {
		const f = fakeFetch(() => [
			401,
			{ error: 'missing or wrong control key', code: 'bad_control_key' }
		]);
		const client = new ControlClient({ key: KEY }, f.fetch);
		const refused = vi.fn();
		client.onRefused = refused;
		const minted = await client.mintToken();
		expect(minted).toMatchObject({ ok: false, kind: 'unauthorized' });
		expect(f.calls[0].url).toBe('/control/token');
		await client.read('tts');
		expect(refused).toHaveBeenCalledTimes(2);
		expect(refused).toHaveBeenLastCalledWith('missing or wrong control key');
	});

	it('takes 429 too_many_attempts for a refused key, not for a wait', async () => {
		const f = fakeFetch(() => [429, { error: 'too many wrong keys', code: 'too_many_attempts' }]);
		const client = new ControlClient({ key: KEY }, f.fetch);
		const refused = vi.fn();
		client.onRefused = refused;
		expect(await client.mintToken()).toMatchObject({ ok: false, kind: 'unauthorized' });
		await client.read('tts');
		expect(refused).toHaveBeenCalledTimes(2);
	});

	it('still waits out 429 too_many_reads: the key is good', async () => {
		const f = fakeFetch(() => [429, { error: 'too many reads', code: 'too_many_reads' }]);
		const client = new ControlClient({ key: KEY }, f.fetch);
		const refused = vi.fn();
		client.onRefused = refused;
		expect(await client.mintToken()).toMatchObject({ ok: false, kind: 'http', status: 429 });
		await client.read('tts');
		expect(refused).not.toHaveBeenCalled();
	});

	it('tells a signed-out dashboard and a server with no dashboard from a session it could open', async () => {
		const out = fakeFetch(() => [401, { error: 'sign in first', code: 'not_signed_in' }]);
		expect(await openSession(out.fetch)).toMatchObject({ ok: false, why: 'signed-out' });
		const single = fakeFetch(() => [404, { error: 'not found', code: 'not_found' }]);
		expect(await openSession(single.fetch)).toMatchObject({ ok: false, why: 'no-dashboard' });
		const inside = fakeFetch(() => [200, { csrf: 'abc' }]);
		expect(await openSession(inside.fetch)).toEqual({ ok: true, csrf: 'abc' });
		expect(inside.calls[0].url).toBe('/control/session');
	});
});
