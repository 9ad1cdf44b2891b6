// The chat commands in single mode against the simulator over loopback: turned on from the dock's
// Commands (created upstream), run from a chat line, acted on once through the dock's control
// path, refused with the reason in the last runs, and a trigger taken upstream shown with a free
// name, the streamer's own command left alone.
import { afterEach, describe, expect, it } from 'vitest';
import { serveApp, type ServedApp } from '../../src/server/serve.ts';
import { commandEvent, playing, say } from '../fixtures/commands.ts';
import { api, eventually, readyTip, simsPerTest, type Sim } from '../fixtures/sim.ts';
import { OVERLAY_KEY, simUpstream } from '../fixtures/token-endpoint.ts';

const newSim = simsPerTest();
const CONTROL_KEY = 'commands-control-key-0123456789abcdef';
const served: ServedApp[] = [];
afterEach(async () => {
	await Promise.all(served.splice(0).map((s) => s.close()));
});

async function endpoint(sim: Sim) {
	const app = await serveApp({
		mode: 'live',
		upstream: simUpstream(sim),
		overlayKey: OVERLAY_KEY,
		controlKey: CONTROL_KEY,
		dist: '/nonexistent'
	});
	served.push(app);
	await eventually(() => app.intake!.connected);
	const control = async (method: string, path: string, body?: unknown) => {
		const res = await fetch(`${app.origin}/control${path}`, {
			method,
			headers: {
				'x-control-key': CONTROL_KEY,
				...(body ? { 'content-type': 'application/json' } : {})
			},
			body: body ? JSON.stringify(body) : undefined
		});
		return { status: res.status, body: await res.json() };
	};
	return { app, control };
}

type Control = Awaited<ReturnType<typeof endpoint>>['control'];
const runs = async (control: Control) => (await control('GET', '/commands')).body.runs;

/** A tip being read on the simulator (claimed as the TTS widget claims it). */
async function reading(sim: Sim, name = 'Reader'): Promise<string> {
	const tip = await readyTip(sim, { name });
	expect((await api(sim, 'POST', `/tts/${tip.order_id}/start`)).status).toBe(200);
	return tip.order_id;
}

describe('chat commands in single mode', () => {
	it('creates the command upstream with moderator permission and deletes it when turned off', async () => {
		const sim = await newSim();
		const { control } = await endpoint(sim);
		const on = await control('POST', '/commands/skip', { on: true });
		expect(on.status).toBe(200);
		expect(on.body.commands.find((c: { key: string }) => c.key === 'skip')).toMatchObject({
			trigger: 'skip',
			permission: 'moderator',
			on: true,
			problem: null
		});
		expect((await api(sim, 'GET', '/commands')).body.commands).toMatchObject([
			{ name: 'skip', permission: 'moderator', platforms: ['twitch', 'kick'] }
		]);
		await control('POST', '/commands/skip', { on: false });
		expect((await api(sim, 'GET', '/commands')).body.commands).toEqual([]);
	});

	it("a moderator's !skip stops the tip being read, once, and the run is listed", async () => {
		const sim = await newSim();
		const { control } = await endpoint(sim);
		await control('POST', '/commands/skip', { on: true });
		const first = await reading(sim);
		await reading(sim, 'Next').catch(() => {});
		expect((await say(sim.origin, '!skip', 'moderator', 'modana')).ran).toBe(true);
		await eventually(() => playing(sim) !== first);
		const [run] = await eventually(async () => (await runs(control)).length > 0).then(() =>
			runs(control)
		);
		expect(run).toMatchObject({ who: 'modana', role: 'moderator', outcome: 'done' });
		// The next tip waits in the queue: one skip, not two.
		expect(sim.control.tenant().tts.items.map((t: { name: string }) => t.name)).toContain('Next');
	});

	it("a viewer's !skip does nothing: the upstream refuses it, and the kit refuses it again", async () => {
		const sim = await newSim();
		const { control } = await endpoint(sim);
		await control('POST', '/commands/skip', { on: true });
		const tip = await reading(sim);
		expect((await say(sim.origin, '!skip', 'viewer', 'vic')).why).toBe('permission');
		// An event with a viewer's role reaching the kit (the upstream's check aside) is refused.
		sim.control.sendRaw(JSON.stringify(commandEvent('evt_viewerrun1', 'skip', 'viewer')));
		await eventually(async () => (await runs(control)).length === 1);
		expect((await runs(control))[0]).toMatchObject({ outcome: 'refused', who: 'A viewer' });
		expect((await runs(control))[0].message).toMatch(/viewer may not run it/);
		expect(playing(sim)).toBe(tip);
	});

	it('the same event delivered twice acts once', async () => {
		const sim = await newSim();
		const { control } = await endpoint(sim);
		await control('POST', '/commands/pausetts', { on: true });
		const event = JSON.stringify(commandEvent('evt_twice00001', 'pausetts', 'moderator'));
		sim.control.sendRaw(event);
		sim.control.sendRaw(event);
		await eventually(async () => (await runs(control)).some((r: any) => r.outcome === 'done'));
		const paused = sim.control.log.events('queue.tts.paused');
		expect(paused).toHaveLength(1);
		expect(await runs(control)).toHaveLength(1);
	});

	it('approve with no name, or a name with nothing held, does nothing and says why', async () => {
		const sim = await newSim();
		const { control } = await endpoint(sim);
		await control('POST', '/commands/approve', { on: true });
		await say(sim.origin, '!approve', 'moderator');
		await say(sim.origin, '!approve Nobody', 'moderator');
		await say(sim.origin, `!approve ${'x'.repeat(101)}`, 'moderator');
		await eventually(async () => (await runs(control)).length === 3);
		expect((await runs(control)).map((r: any) => [r.outcome, r.message])).toEqual([
			['refused', 'arguments over 100 characters'],
			['refused', 'nothing held for Nobody'],
			['refused', 'no name given']
		]);
	});

	it('approve plays the held tip of the name it picks, once, and a second run finds nothing held', async () => {
		const sim = await newSim();
		const { app, control } = await endpoint(sim);
		expect((await control('PUT', '/moderation', { everyTip: 'hold' })).status).toBe(200);
		await control('POST', '/commands/approve', { on: true });
		const ana = await readyTip(sim, { name: 'Ana' });
		await readyTip(sim, { name: 'Anabel' });
		await readyTip(sim, { name: 'Anatole' });
		const start = () =>
			fetch(`${app.origin}/api/tts/${ana.order_id}/start`, {
				method: 'POST',
				headers: { 'x-overlay-key': OVERLAY_KEY }
			});
		expect((await (await start()).json()).code).toBe('held');
		await say(sim.origin, '!approve anabel', 'moderator');
		await say(sim.origin, '!approve ana', 'moderator');
		await say(sim.origin, '!approve Anat', 'moderator');
		await say(sim.origin, '!approve Ana', 'moderator');
		await say(sim.origin, '!approve An', 'moderator');
		await eventually(async () => (await runs(control)).length === 5);
		expect((await runs(control)).map((r: any) => [r.outcome, r.message]).reverse()).toEqual([
			['done', 'approved the tip of Anabel'],
			['done', 'approved the tip of Ana'],
			['done', 'approved the tip of Anatole'],
			['refused', 'nothing held for Ana'],
			['refused', 'nothing held for An']
		]);
		expect((await start()).status).toBe(200);
	});

	it('a name matching two held tippers approves nothing and says so', async () => {
		const sim = await newSim();
		const { control } = await endpoint(sim);
		await control('PUT', '/moderation', { everyTip: 'hold' });
		await control('POST', '/commands/approve', { on: true });
		await readyTip(sim, { name: 'Anabel' });
		await readyTip(sim, { name: 'Anatole' });
		await say(sim.origin, '!approve Ana', 'moderator');
		await eventually(async () => (await runs(control)).length === 1);
		expect((await runs(control))[0]).toMatchObject({
			outcome: 'refused',
			message: '2 held tippers match Ana: type the whole name'
		});
	});

	it("a trigger taken upstream is shown with a free name, and the streamer's command stays", async () => {
		const sim = await newSim();
		const { control } = await endpoint(sim);
		await api(sim, 'POST', '/commands', { body: { name: 'skip', response: 'my own' } });
		const on = await control('POST', '/commands/skip', { on: true });
		expect(on.body.commands.find((c: { key: string }) => c.key === 'skip')).toMatchObject({
			on: false,
			problem: { code: 'command_exists', free: 'skip2' }
		});
		await control('POST', '/commands/skip', { on: false });
		const renamed = await control('POST', '/commands/skip', { on: true, trigger: 'skip2' });
		expect(renamed.body.commands.find((c: { key: string }) => c.key === 'skip').on).toBe(true);
		const upstream = (await api(sim, 'GET', '/commands')).body.commands;
		expect(upstream.map((c: { name: string; response: string }) => [c.name, c.response])).toEqual([
			['skip', 'my own'],
			['skip2', 'Skipping the tip being read.']
		]);
	});
});
