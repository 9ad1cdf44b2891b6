// Thanks in chat (docs/dock.md, "Thanks in chat") against the real simulator over loopback: a tip
// finished through /api as the TTS widget finishes it is thanked once, after its finish, in the
// streamer's words; nothing else is (thanks off, a skip, a moderated tip); a burst is one message;
// a bot switched off is shown in the dock and holds no alert; the dock's Send to chat.
import { describe, expect, it } from 'vitest';
import { chatSaid, readyTip, until } from '../fixtures/sim.ts';
import { SCOPES } from '../../src/contract/common.ts';
import { send, simUpstream } from '../fixtures/token-endpoint.ts';
import { rig, withRules, type Rig } from './control.setup.ts';

const THANKS = {
	enabled: true,
	template: 'Thank you {name} for the {amount} tip!',
	burst: 'Thanks {name}!'
};

/** A tip claimed and finished through /api, as the TTS widget does; the finish's status. */
async function readOnStream(r: Rig, input: Parameters<typeof readyTip>[1] = {}) {
	return play(r, await readyTip(r.sim, input));
}

async function play(r: Rig, tip: { order_id: string }) {
	const started = await send(r.app, 'POST', `/api/tts/${tip.order_id}/start`);
	expect(started.status).toBe(200);
	const finished = await send(r.app, 'POST', `/api/tts/${tip.order_id}/finish`);
	return { orderId: tip.order_id as string, status: finished.status };
}

async function thanksOn(r: Rig, thanks = THANKS) {
	const saved = await r.dock('PUT', '/control/chat/thanks', { body: thanks });
	expect(saved.status).toBe(200);
	return saved;
}

/** The dock's GET /control/chat once `ready` says so (or after 5 s, as it is then). */
async function chatOnce(r: Rig, ready: (chat: any) => boolean): Promise<any> {
	const end = Date.now() + 5000;
	for (;;) {
		const chat = (await r.dock('GET', '/control/chat')).body;
		if (ready(chat) || Date.now() > end) return chat;
		await new Promise((res) => setTimeout(res, 50));
	}
}

/** Long enough for a thanks that would be sent to have been sent (its gathering is 1.5 s). */
const settle = () => new Promise((r) => setTimeout(r, 2500));

describe('thanks in chat', () => {
	it('are off until the streamer turns them on', async () => {
		const r = await rig();
		const status = await r.dock('GET', '/control/chat');
		expect(status.body).toMatchObject({ thanks: { enabled: false }, waiting: 0, problem: null });
		await readOnStream(r, { name: 'Quiet' });
		await settle();
		expect(chatSaid(r.sim)).toEqual([]);
	});

	it('thank a tip read on stream once, after its finish, with its name and amount', async () => {
		const r = await rig();
		await thanksOn(r);
		const { orderId, status } = await readOnStream(r, { name: 'Ada', amount: 5 });
		expect(status).toBe(200);
		await until(() => chatSaid(r.sim).length > 0, 5000);
		expect(chatSaid(r.sim)).toEqual(['Thank you Ada for the $5.00 tip!']);
		// A second finish of the same tip (a page that did not hear the first answer) thanks nobody.
		expect((await send(r.app, 'POST', `/api/tts/${orderId}/finish`)).status).toBe(409);
		await settle();
		expect(chatSaid(r.sim)).toHaveLength(1);
		const chat = await r.dock('GET', '/control/chat');
		expect(chat.body.recent[0]).toMatchObject({
			text: 'Thank you Ada for the $5.00 tip!',
			kind: 'thanks',
			tips: 1,
			outcome: 'sent'
		});
		expect(chat.body.waiting).toBe(0);
	});

	it('never say the tip message', async () => {
		const r = await rig();
		await thanksOn(r, { ...THANKS, template: 'Thanks {name}!' });
		await readOnStream(r, { name: 'Bo', message: 'secret words here' });
		await until(() => chatSaid(r.sim).length > 0, 5000);
		expect(chatSaid(r.sim)[0]).not.toContain('secret');
	});

	it('thank alerts played back to back (a burst) in one message, when the last is read', async () => {
		const r = await rig();
		await thanksOn(r);
		const tips = [];
		for (const name of ['Ann', 'Ben', 'Cy']) tips.push(await readyTip(r.sim, { name, amount: 2 }));
		for (const tip of tips) {
			await play(r, tip);
			// Each alert takes its time: longer than a thanks waits for the next one to start.
			await new Promise((res) => setTimeout(res, 600));
		}
		await until(() => chatSaid(r.sim).length > 0, 5000);
		await settle();
		expect(chatSaid(r.sim)).toEqual(['Thanks Ann, Ben and Cy!']);
	});

	it('thank no skipped tip, and no tip moderation removed, voiced nothing of or holds', async () => {
		const r = await rig();
		await withRules(r, {
			words: [
				{ text: 'holdme', outcome: 'hold' },
				{ text: 'mute', outcome: 'no_voice' },
				{ text: 'dropme', outcome: 'remove' }
			]
		});
		await thanksOn(r);
		const skipped = await readyTip(r.sim, { name: 'Skipped' });
		await send(r.app, 'POST', `/api/tts/${skipped.order_id}/start`);
		expect((await r.act('tts-skip', skipped.order_id)).status).toBe(200);
		expect((await send(r.app, 'POST', `/api/tts/${skipped.order_id}/finish`)).status).not.toBe(200);
		const muted = await readOnStream(r, { name: 'Muted', message: 'please mute this' });
		expect(muted.status).toBe(200);
		for (const message of ['holdme now', 'dropme now']) {
			const tip = await readyTip(r.sim, { name: 'Never', message });
			expect((await send(r.app, 'POST', `/api/tts/${tip.order_id}/start`)).status).toBe(409);
		}
		await settle();
		expect(chatSaid(r.sim)).toEqual([]);
	});

	it('thank a held tip once a person approved it and it was read', async () => {
		const r = await rig();
		await withRules(r, { words: [{ text: 'holdme', outcome: 'hold' }] });
		await thanksOn(r);
		const tip = await readyTip(r.sim, { name: 'Held', message: 'holdme please' });
		expect((await send(r.app, 'POST', `/api/tts/${tip.order_id}/start`)).status).toBe(409);
		const approved = await r.dock('POST', '/control/moderation/approve', {
			body: { order_id: tip.order_id }
		});
		expect(approved.status).toBe(200);
		await send(r.app, 'POST', `/api/tts/${tip.order_id}/start`);
		expect((await send(r.app, 'POST', `/api/tts/${tip.order_id}/finish`)).status).toBe(200);
		await until(() => chatSaid(r.sim).length > 0, 5000);
		expect(chatSaid(r.sim)).toEqual(['Thank you Held for the $5.00 tip!']);
	});

	it('show a bot switched off in the dock, and never hold the alert', async () => {
		const r = await rig();
		await thanksOn(r);
		r.sim.control.chat().switches.disabled = true;
		const { status } = await readOnStream(r, { name: 'Off' });
		expect(status).toBe(200);
		const chat = await chatOnce(r, (c) => c.problem !== null);
		expect(chat.problem).toMatchObject({ code: 'bot_disabled' });
		expect(chat.problem.error).toMatch(/switched off/);
		expect(chat.waiting).toBe(1);
		expect(chatSaid(r.sim)).toEqual([]);
	});

	it('say at once, when switched on, that the connection lacks chat:write', async () => {
		const r = await rig({
			upstream: (sim) =>
				simUpstream(
					sim,
					sim.control.addKey({ scopes: SCOPES.filter((s) => s !== 'chat:write') }).value
				)
		});
		await thanksOn(r);
		const chat = await chatOnce(r, (c) => c.problem !== null);
		expect(chat.problem).toMatchObject({ code: 'missing_scope', required_scope: 'chat:write' });
	});

	it('refuse a template with an unknown placeholder or a command, by its field', async () => {
		const r = await rig();
		const bad = await r.dock('PUT', '/control/chat/thanks', {
			body: { ...THANKS, template: 'Thanks {user}!' }
		});
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: 'bad_template', field: 'template' });
		const command = await r.dock('PUT', '/control/chat/thanks', {
			body: { ...THANKS, burst: '!so {name}' }
		});
		expect(command.body).toMatchObject({ code: 'bad_template', field: 'burst' });
		expect((await r.dock('GET', '/control/chat')).body.thanks.enabled).toBe(false);
	});
});

describe("the dock's Send to chat", () => {
	it('posts the message as written and lists it', async () => {
		const r = await rig();
		const sent = await r.dock('POST', '/control/chat/send', { body: { message: 'BRB 5 min' } });
		expect(sent.status).toBe(200);
		expect(chatSaid(r.sim)).toEqual(['BRB 5 min']);
		expect((await r.dock('GET', '/control/chat')).body.recent[0]).toMatchObject({
			text: 'BRB 5 min',
			kind: 'dock',
			outcome: 'sent'
		});
	});

	it('refuses a command, and says why the bot cannot speak', async () => {
		const r = await rig();
		const command = await r.dock('POST', '/control/chat/send', { body: { message: '/ban x' } });
		expect(command).toMatchObject({ status: 400, body: { code: 'message_disallowed' } });
		r.sim.control.chat().switches.disabled = true;
		const off = await r.dock('POST', '/control/chat/send', { body: { message: 'hello' } });
		expect(off).toMatchObject({ status: 409, body: { code: 'bot_disabled' } });
		expect(chatSaid(r.sim)).toEqual([]);
	});

	it('keeps to the chat budget: 20 messages per 30 s, then a 429 without calling upstream', async () => {
		const r = await rig();
		for (let i = 0; i < 20; i++)
			expect(
				(await r.dock('POST', '/control/chat/send', { body: { message: `m${i}` } })).status
			).toBe(200);
		const before = r.calls.length;
		const over = await r.dock('POST', '/control/chat/send', { body: { message: 'one more' } });
		expect(over).toMatchObject({ status: 429, body: { code: 'chat_budget' } });
		expect(r.calls.length).toBe(before);
	});
});
