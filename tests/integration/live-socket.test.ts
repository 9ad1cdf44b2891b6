// The push channel over a WebSocket (src/server/live/sockets.ts), on a real Node server in front of
// the simulator: the page's key goes in its first message, a wrong one is refused and closed, and
// an approval given in the dock reaches the socket. One stream per page through the browser's
// WebSocket pool, not its six HTTP connections per origin (tests/e2e/live-connections.spec.ts).
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { listen } from '../../src/server/serve.ts';
import { readyTip, until } from '../fixtures/sim.ts';
import { OVERLAY_KEY } from '../fixtures/token-endpoint.ts';
import { CONTROL_KEY, rig } from './control.setup.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0)) await close();
});

async function served() {
	const r = await rig();
	const { origin, close } = await listen(r.app.fetch, '127.0.0.1', 0);
	closers.push(close);
	return { r, ws: origin.replace('http', 'ws'), origin };
}

/** A socket that sent `headers` as its auth message; what it heard, and how it closed. */
function socket(url: string, headers: Record<string, string>) {
	const ws = new WebSocket(url, { headers: { host: new URL(url).host } });
	const heard: string[] = [];
	const state = { code: 0 };
	ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', headers })));
	ws.on('message', (m) => heard.push(String(m)));
	ws.on('close', (code) => (state.code = code));
	return { ws, heard, state, text: () => heard.join('\n') };
}

describe('the push channel as a WebSocket', () => {
	it('opens with the overlay key and carries an approval given in the dock', async () => {
		const { r, ws } = await served();
		await r.dock('PUT', '/control/moderation', { body: { everyTip: 'hold' } });
		const tip = await readyTip(r.sim);
		await r.dock('GET', '/control/api/tts/queue');
		const page = socket(`${ws}/live`, { 'X-Overlay-Key': OVERLAY_KEY });
		await until(() => page.text().includes('"hello"'));
		expect(page.heard[0]).toBe('{"type":"open"}');
		await r.dock('POST', '/control/moderation/approve', { body: { order_id: tip.order_id } });
		await until(() => page.text().includes(`"order_id":"${tip.order_id}"`));
		page.ws.close();
	});

	it('the dock opens /control/live with its control key, never with the overlay key', async () => {
		const { ws } = await served();
		const dock = socket(`${ws}/control/live`, { 'x-control-key': CONTROL_KEY });
		await until(() => dock.text().includes('"hello"'));
		dock.ws.close();
		const wrong = socket(`${ws}/control/live`, { 'x-overlay-key': OVERLAY_KEY });
		await until(() => wrong.state.code !== 0);
		expect(wrong.state.code).toBe(4401);
		expect(JSON.parse(wrong.heard[0])).toMatchObject({ type: 'refused', status: 401 });
		expect(wrong.text()).not.toContain('hello');
	});

	it('a wrong or missing key is refused, and only the credential headers are taken', async () => {
		const { ws } = await served();
		const bad = socket(`${ws}/live`, { 'x-overlay-key': 'not-the-key-0123456789' });
		const none = socket(`${ws}/live`, { host: 'evil.example', 'x-control-key': CONTROL_KEY });
		await until(() => bad.state.code !== 0 && none.state.code !== 0);
		expect([bad.state.code, none.state.code]).toEqual([4401, 4401]);
	});

	it('a request that is not a WebSocket upgrade is answered 426, whatever key it carries', async () => {
		const { origin } = await served();
		const res = await fetch(`${origin}/live`, { headers: { 'x-overlay-key': OVERLAY_KEY } });
		expect(res.status).toBe(426);
		expect(((await res.json()) as { code: string }).code).toBe('upgrade_required');
	});
});
