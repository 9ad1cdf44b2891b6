// Wrong keys on several hosted instances behind a proxy (the client is the address the proxy
// appends to X-Forwarded-For): a client that keeps sending wrong keys to every instance is
// answered 429 by each, while a streamer's right overlay key, control key and dashboard session
// from that same address are served by every instance at once. A replaced key is told so, never
// answered 429. PostgreSQL needed, as for the other hosted-instances tests.
import { describe, expect, it } from 'vitest';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { dockKeyIn, keyIn } from '../fixtures/hosted.ts';
import {
	dashboard,
	deployment,
	missing,
	PUBLIC,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';

useDeployments();

/** Everyone behind the proxy: the last X-Forwarded-For entry is the client. */
const BEHIND = '203.0.113.50';

const call = async (on: HostedApp, method: string, path: string, headers = {}) => {
	const res = await fetch(on.origin + path, {
		method,
		redirect: 'manual',
		headers: { 'x-forwarded-for': BEHIND, ...headers }
	});
	const body = (await res.json().catch(() => null)) as { code?: string } | null;
	return [res.status, body?.code] as const;
};

describe.skipIf(missing)('wrong keys on several hosted instances', { timeout: 120_000 }, () => {
	it('are slowed on each instance; the right keys and the session from the same address are served', async () => {
		const { sim, apps } = await deployment(2);
		const [a, b] = apps;
		const cookie = await signIn(sim, a, b);
		const html = await dashboard(a, cookie);
		const overlayKey = keyIn(html)!;
		const controlKey = dockKeyIn(html)!;
		const csrf = (
			(await (await fetch(`${b.origin}/control/session`, { headers: { cookie } })).json()) as {
				csrf: string;
			}
		).csrf;
		const session = { cookie, 'x-csrf-token': csrf, origin: PUBLIC };
		// A key replaced on the dashboard: its old sources keep asking.
		const renewed = await fetch(`${a.origin}/account/new-key`, {
			method: 'POST',
			redirect: 'manual',
			headers: { cookie, origin: PUBLIC }
		});
		expect(renewed.status).toBe(303);
		const replaced = overlayKey;
		const fresh = keyIn(await dashboard(b, cookie))!;
		expect(fresh).not.toBe(replaced);

		const wrong = 'w'.repeat(43);
		for (const on of apps) {
			const answers = [];
			for (let i = 0; i < 8; i++) {
				answers.push(await call(on, 'POST', '/token', { 'x-overlay-key': wrong }));
				answers.push(await call(on, 'GET', '/control/api/me', { 'x-control-key': wrong }));
			}
			expect(answers.slice(0, 10).every(([s]) => s === 401)).toBe(true);
			expect(answers.slice(10)).toEqual(Array(6).fill([429, 'too_many_attempts']));
		}
		const upstreamBefore = sim.control.log.requests().length;
		for (const on of apps) {
			const right: [string, string, Record<string, string>][] = [
				['POST', '/token', { 'x-overlay-key': fresh }],
				['GET', '/api/me', { 'x-overlay-key': fresh }],
				['GET', '/settings', { 'x-overlay-key': fresh }],
				['GET', '/control/api/me', { 'x-control-key': controlKey }],
				['POST', '/control/actions/tts-pause', session]
			];
			for (const [method, path, headers] of right)
				expect(await call(on, method, path, headers), `${method} ${path}`).toEqual([
					200,
					undefined
				]);
			// The replaced key is told it was replaced (its page stops for good), not to wait.
			expect(await call(on, 'POST', '/token', { 'x-overlay-key': replaced })).toEqual([
				401,
				'overlay_key_replaced'
			]);
			expect(await call(on, 'POST', '/token', { 'x-overlay-key': wrong })).toEqual([
				429,
				'too_many_attempts'
			]);
		}
		expect(sim.control.log.requests().length).toBeGreaterThan(upstreamBefore);
		// Each instance counts what it refused, for its operator.
		for (const on of apps)
			expect(await (await fetch(`${on.origin}/metrics`)).text()).toMatch(
				/^tip_keys_refused_total\{answer="too_many_attempts"\} [1-9]\d*$/m
			);
		// Another client behind the same proxy: its first wrong key is its own first.
		expect(
			await call(a, 'POST', '/token', { 'x-overlay-key': wrong, 'x-forwarded-for': '198.51.100.1' })
		).toEqual([401, 'bad_overlay_key']);
	});
});
