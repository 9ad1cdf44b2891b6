// The single-mode intake against the embedded simulator over real HTTP and WebSocket: the token
// endpoint's own realtime connection keeps the streamer's live view, reconnects after a dropped
// socket and reads the view's parts again (an event sent while it was away is not replayed), and
// drops a malformed frame with a log line.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { SCOPES } from '../../src/contract/index.ts';
import { VIEW_DEFAULTS } from '../../src/core/view/live-view.ts';
import { VIEW_PARTS } from '../../src/core/view/parts.ts';
import { StreamIntake } from '../../src/server/intake/intake.ts';
import { serveApp } from '../../src/server/serve.ts';
import { UpstreamClient } from '../../src/server/upstream.ts';
import { checkSettings } from '../fixtures/settings.ts';
import { api, simsPerTest, until, type Sim } from '../fixtures/sim.ts';
import { simUpstream } from '../fixtures/token-endpoint.ts';

const newSim = simsPerTest();
const running: StreamIntake[] = [];
afterEach(() => running.splice(0).forEach((i) => i.stop()));

function intakeOn(sim: Sim, log: string[] = [], apiKey = sim.apiKey): StreamIntake {
	const upstream = new UpstreamClient(() => simUpstream(sim, apiKey));
	const intake = new StreamIntake(upstream, {
		backoff: { baseMs: 50, maxMs: 200 },
		log: (line) => log.push(line)
	});
	running.push(intake);
	intake.start();
	return intake;
}

const allRead = (intake: StreamIntake) => VIEW_PARTS.every((p) => intake.view.known.has(p));
const allReadBut = (intake: StreamIntake, but: readonly string[]) =>
	VIEW_PARTS.every((p) => but.includes(p) || intake.view.known.has(p));
const ids = (items: { order_id: string }[]) => items.map((i) => i.order_id);

async function tip(sim: Sim, name: string, amount = 5): Promise<string> {
	const res = await api(sim, 'POST', '/tips', { body: { name, amount, paid: true } });
	expect(res.status).toBe(201);
	return res.body.tip.order_id as string;
}

describe('the intake', () => {
	it('keeps the view from the events: tips and videos added, played and skipped', async () => {
		const sim = await newSim();
		const intake = intakeOn(sim);
		await until(() => allRead(intake));
		const view = intake.view;
		const before = view.goals.get('o_1a2b3c4d')!.current;

		const first = await tip(sim, 'Ada', 7);
		const second = await tip(sim, 'Bea', 3);
		const video = (
			await api(sim, 'POST', '/media/queue', { body: { url: 'https://youtu.be/abc' } })
		).body.media.order_id as string;
		await until(() => view.tts.items.length === 2 && view.media.items.length === 1);
		expect(ids(view.tts.items)).toEqual([first, second]);
		expect(ids(view.media.items)).toEqual([video]);
		// Tips this soon after the totals were read may be in them: those are read again instead.
		await until(() => view.goals.get('o_1a2b3c4d')!.current === before + 10);
		await until(() => !!view.supporters()?.some((s) => s.name === 'Ada' && s.total === 7));

		expect((await api(sim, 'POST', `/tts/${first}/start`)).status).toBe(200);
		await until(() => view.tts.current === first);
		expect((await api(sim, 'POST', `/tts/${first}/finish`)).status).toBe(200);
		expect((await api(sim, 'POST', `/media/${video}/start`)).status).toBe(200);
		expect((await api(sim, 'POST', `/media/${video}/finish`)).status).toBe(200);
		expect((await api(sim, 'POST', '/tts/skip')).body.order_id).toBe(second);
		await until(() => view.tts.items.length === 0 && view.media.items.length === 0);
		expect(view.tts.current).toBeNull();
		expect(ids(view.ttsHistoryPage().rows)).toEqual([first]);
		expect(ids(view.mediaHistoryPage().rows)).toEqual([video]);
		// The queues and lists were read once, at the connect: the events kept them since.
		for (const part of ['tts', 'media', 'ttsHistory', 'mediaHistory', 'counters'] as const)
			expect(intake.reads.get(part), part).toBe(1);
	});

	it('reads the goals and the leaderboard again once a doubt window at most in a burst of tips, ending on their totals', async () => {
		const sim = await newSim();
		const intake = intakeOn(sim);
		await until(() => allRead(intake));
		const view = intake.view;
		// Tips 100 ms apart from the first answers on: each one in doubt of the answer before it.
		const started = Date.now();
		for (let i = 0; i < 12; i++) {
			await tip(sim, `Burst${i % 3}`, 1 + i);
			await new Promise((r) => setTimeout(r, 100));
		}
		const settled = () => VIEW_PARTS.every((p) => view.sure(p) && !intake.pending(p));
		await until(settled, 5000);
		const elapsed = Date.now() - started;
		const goal = (await api(sim, 'GET', '/overlays/o_1a2b3c4d/tip-goal')).body.tip_goal;
		expect(view.goals.get('o_1a2b3c4d')).toEqual(goal);
		const board = (await api(sim, 'GET', '/leaderboard?limit=25')).body.supporters;
		expect(view.supporters(25)).toEqual(board);
		// Read again as each doubt window closes, never once a tip: the read budget stays the pages'.
		const most = 1 + Math.ceil(elapsed / VIEW_DEFAULTS.doubtMs) + 1;
		for (const part of ['goals', 'leaderboard'] as const)
			expect(intake.reads.get(part), part).toBeLessThanOrEqual(most);
	});

	it('reconnects after a dropped socket and reads the view again, finding what it missed', async () => {
		const sim = await newSim();
		const intake = intakeOn(sim);
		await until(() => allRead(intake) && intake.connects === 1);
		// The socket dies and reconnects are refused for a while: this tip's event reaches no one.
		expect(sim.control.dropSockets(400)).toBe(1);
		const missed = await tip(sim, 'Cy');
		// Until its parts are read again the view answers nothing for sure.
		await until(() => VIEW_PARTS.every((p) => !intake.view.sure(p)));
		await until(() => intake.connects === 2, 5000);
		await until(() => ids(intake.view.tts.items).includes(missed));
		for (const part of VIEW_PARTS) expect(intake.reads.get(part), part).toBe(2);
		await until(() => VIEW_PARTS.every((p) => intake.view.sure(p)));
		// And the new socket carries events again.
		const next = await tip(sim, 'Dee');
		await until(() => ids(intake.view.tts.items).includes(next));
	});

	it('takes a socket that falls silent for dead after twice the heartbeat and reconnects', async () => {
		const sim = await newSim({ heartbeatS: 0.2 });
		const log: string[] = [];
		const intake = intakeOn(sim, log);
		await until(() => allRead(intake) && intake.connected);
		// A loaded machine may have starved a ping past the watchdog already: counted from here.
		const before = intake.connects;
		const reads = (p: (typeof VIEW_PARTS)[number]) => intake.reads.get(p) ?? 0;
		const readsBefore = new Map(VIEW_PARTS.map((p) => [p, reads(p)]));
		// Open but silent, like a half-open TCP connection: only the watchdog can tell.
		expect(sim.control.silenceSockets(10_000)).toBe(1);
		await until(() => intake.connects > before);
		expect(log.join('\n')).toMatch(/no message for 0.4 s; reconnecting/);
		await until(() => VIEW_PARTS.every((p) => reads(p) > readsBefore.get(p)!));
	});

	it('reads a part again with backoff after the upstream failed to answer it', async () => {
		const sim = await newSim();
		sim.control.failHttp({ status: 502, count: 2, match: '/counters' });
		const log: string[] = [];
		const intake = intakeOn(sim, log);
		await until(() => allRead(intake));
		expect(intake.reads.get('counters')).toBe(3);
		expect(
			log.filter((l) => l.includes('reading counters failed (GET /counters: 502)'))
		).toHaveLength(2);
		expect(intake.view.counters.get('deaths')?.value).toBe(3);
	});

	it('goes without the parts its credential may not read, and reads them no more', async () => {
		const sim = await newSim();
		const key = sim.control.addKey({ scopes: SCOPES.filter((s) => s !== 'media:read') });
		const log: string[] = [];
		const intake = intakeOn(sim, log, key.value);
		await until(() => intake.lacking.size === 2 && allReadBut(intake, ['media', 'mediaHistory']));
		expect([...intake.lacking].sort()).toEqual(['media', 'mediaHistory']);
		expect(log.join('\n')).toMatch(/cannot read media \(GET \/media\/queue: 403\); left out/);
		const id = await tip(sim, 'Gus');
		await until(() => ids(intake.view.tts.items).includes(id));
		expect(intake.reads.get('media')).toBe(1);
	});

	it('keeps trying with backoff once its key is revoked, and never logs the key', async () => {
		const sim = await newSim();
		const key = sim.control.addKey();
		const log: string[] = [];
		const intake = intakeOn(sim, log, key.value);
		await until(() => allRead(intake));
		sim.control.revokeKey(key.value);
		// Every attempt is refused (and told); the reason to reconnect is told once.
		await until(() => log.filter((l) => l.includes('invalid_api_key')).length >= 2);
		expect(log.filter((l) => l.includes('socket closed (4401)'))).toHaveLength(1);
		expect(log.join('\n')).toMatch(/upstream refused the socket: invalid_api_key/);
		expect(log.join('\n')).not.toContain(key.value);
		expect(intake.connected).toBe(false);
	});

	it('drops a malformed frame with a log line and keeps the connection', async () => {
		const sim = await newSim();
		const log: string[] = [];
		const intake = intakeOn(sim, log);
		await until(() => allRead(intake));
		sim.control.sendRaw('{"id":"evt_broken1","type":"tip.created","created_at":"x","data":{}}');
		sim.control.sendRaw('not json');
		await until(() => log.length >= 2);
		expect(log.join('\n')).toMatch(/malformed frame dropped: .*created_at/);
		expect(log.join('\n')).toMatch(/malformed frame dropped: frame is not JSON/);
		expect(log.join('\n')).not.toContain(sim.apiKey);
		const after = await tip(sim, 'Eve');
		await until(() => ids(intake.view.tts.items).includes(after));
		expect(intake.connects).toBe(1);
	});

	it('connects at once when the credential changes, not after its backoff', async () => {
		const sim = await newSim();
		// No credential at first (OAuth only, before Connect), then the key once connected.
		const held = { key: '' };
		const upstream = new UpstreamClient(() => simUpstream(sim, held.key));
		const log: string[] = [];
		const intake = new StreamIntake(upstream, {
			backoff: { baseMs: 600_000, maxMs: 600_000 },
			log: (line) => log.push(line)
		});
		running.push(intake);
		intake.start();
		await until(() => log.some((l) => l.includes('no upstream credential')));
		held.key = sim.apiKey;
		intake.reconnect();
		await until(() => allRead(intake) && intake.connected);
		// Once more, with a socket open: it is made again, and every part read again after it.
		const reads = intake.reads.get('tts');
		intake.reconnect();
		await until(() => intake.connects === 2 && intake.reads.get('tts') === reads! + 1);
	});

	it('gives up an attempt whose handshake is never answered, and tries again', async () => {
		// Accepts the connection and never answers the upgrade.
		const silent = createServer(() => {});
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		const { port } = silent.address() as AddressInfo;
		const upstream = new UpstreamClient(() => ({
			baseUrl: `http://127.0.0.1:${port}/v1`,
			wsUrl: `ws://127.0.0.1:${port}/v1/realtime`,
			apiKey: 'tk_test_silent'
		}));
		const log: string[] = [];
		const intake = new StreamIntake(upstream, {
			backoff: { baseMs: 10, maxMs: 20 },
			handshakeMs: 100,
			log: (line) => log.push(line)
		});
		running.push(intake);
		try {
			let changes = 0;
			intake.start();
			// A connect and its failure, twice: every attempt ends, none holds on.
			while (changes < 4) {
				await intake.changed();
				changes += 1;
			}
			expect(log.join('\n')).toMatch(/socket closed \(1006\)/);
			expect(intake.connected).toBe(false);
		} finally {
			intake.stop();
			silent.closeAllConnections?.();
			await new Promise((resolve) => silent.close(resolve));
		}
	});

	for (const first of ['nothing', 'a ping'] as const)
		it(`gives up a socket that opens and never says ready (saying ${first}), and tries again`, async () => {
			const mute = new WebSocketServer({ port: 0, host: '127.0.0.1' });
			await new Promise((resolve) => mute.once('listening', resolve));
			const { port } = mute.address() as AddressInfo;
			let opened = 0;
			mute.on('connection', (ws) => {
				opened += 1;
				// A frame before any ready leaves the attempt's wait for its ready as it was.
				if (first === 'a ping') ws.send(JSON.stringify({ type: 'ping', data: { t: Date.now() } }));
			});
			const upstream = new UpstreamClient(() => ({
				baseUrl: `http://127.0.0.1:${port}/v1`,
				wsUrl: `ws://127.0.0.1:${port}/v1/realtime`,
				apiKey: 'tk_test_mute'
			}));
			const intake = new StreamIntake(upstream, {
				backoff: { baseMs: 10, maxMs: 20 },
				handshakeMs: 100,
				log: () => {}
			});
			running.push(intake);
			try {
				intake.start();
				await until(() => opened >= 3);
				expect(intake.connects).toBe(0);
			} finally {
				intake.stop();
				await new Promise((resolve) => mute.close(resolve));
			}
		});

	it('runs in the served token endpoint unless turned off, through its budgeted client, until it closes', async () => {
		const sim = await newSim();
		const served = await serveApp({
			mode: 'demo',
			upstream: simUpstream(sim),
			overlayKey: 'intake-overlay-key-0123456789abcdef',
			dist: '/nonexistent',
			checkSettings
		});
		try {
			const intake = served.intake!;
			await until(() => allRead(intake));
			const id = await tip(sim, 'Fay');
			await until(() => ids(intake.view.tts.items).includes(id));
		} finally {
			await served.close();
		}
		expect(served.intake!.connected).toBe(false);
		const off = await serveApp({
			mode: 'demo',
			upstream: simUpstream(sim),
			overlayKey: 'intake-overlay-key-0123456789abcdef',
			dist: '/nonexistent',
			checkSettings,
			intake: false
		});
		expect(off.intake).toBeNull();
		await off.close();
	});
});
