// Thanks in chat across a crash: a token endpoint killed (SIGKILL) after a tip's finish was
// answered and before its thanks went out leaves the thanks owed in its chat file; the endpoint
// started again sends it, once, and a second restart sends nothing more.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runChild, type Child } from '../fixtures/child.ts';
import { type Sim, chatSaid, readyTip, simsPerTest, until } from '../fixtures/sim.ts';
import { OVERLAY_KEY } from '../fixtures/token-endpoint.ts';

const newSim = simsPerTest();
const CONTROL_KEY = 'restart-control-key-0123456789abcdef';
const children: Child[] = [];
afterEach(() => {
	for (const c of children.splice(0)) void c.killed();
});

/** The endpoint in its own process on `dir`'s files; its origin once it listens. */
async function endpoint(sim: Sim, dir: string) {
	const child = runChild('tests/fixtures/thanks-child.ts', {
		BASE_URL: sim.baseUrl,
		WS_URL: sim.wsUrl,
		API_KEY: sim.apiKey,
		CONTROL_KEY,
		MODERATION_FILE: join(dir, 'moderation.json'),
		CHAT_FILE: join(dir, 'chat.json')
	});
	children.push(child);
	const origin = await child.heard();
	const call = (method: string, path: string, body?: unknown, control = false) =>
		fetch(origin + path, {
			method,
			headers: {
				...(control ? { 'x-control-key': CONTROL_KEY } : { 'x-overlay-key': OVERLAY_KEY }),
				...(body ? { 'content-type': 'application/json' } : {})
			},
			body: body ? JSON.stringify(body) : undefined
		});
	return { call, killed: child.killed };
}

it('a thanks owed when the endpoint is killed goes out once after the restart', async () => {
	const sim = await newSim();
	const dir = mkdtempSync(join(tmpdir(), 'thanks-restart-'));
	const first = await endpoint(sim, dir);
	const thanks = { enabled: true, template: 'Thank you {name}!', burst: 'Thanks {name}!' };
	expect((await first.call('PUT', '/control/chat/thanks', thanks, true)).status).toBe(200);
	const tip = await readyTip(sim, { name: 'Crash' });
	expect((await first.call('POST', `/api/tts/${tip.order_id}/start`)).status).toBe(200);
	expect((await first.call('POST', `/api/tts/${tip.order_id}/finish`)).status).toBe(200);
	// Killed at once: the thanks waits a moment for another alert, so it has not gone out. The tip
	// was noted before its finish went upstream (then owed, unless the kill came first).
	expect(await first.killed()).toBe('SIGKILL');
	expect(chatSaid(sim)).toEqual([]);
	// The chat file is a journal, a JSON line per change: the tip's entry as the last one left it.
	const lines = readFileSync(join(dir, 'chat.json'), 'utf8').trim().split('\n');
	const entry = lines
		.map((l) => JSON.parse(l).entries?.[tip.order_id])
		.filter(Boolean)
		.at(-1);
	expect(['finishing', 'owed']).toContain(entry.state);

	const second = await endpoint(sim, dir);
	await until(() => chatSaid(sim).length > 0, 10_000);
	expect(chatSaid(sim)).toEqual(['Thank you Crash!']);
	// Chat shows the thanks as soon as it is posted; its entry is settled once the answer is stored.
	const waiting = async () =>
		(await (await second.call('GET', '/control/chat', undefined, true)).json()).waiting;
	await expect.poll(waiting, { timeout: 5000 }).toBe(0);
	await second.killed();

	const third = await endpoint(sim, dir);
	await new Promise((r) => setTimeout(r, 2500));
	expect(chatSaid(sim)).toEqual(['Thank you Crash!']);
	await third.killed();
});
