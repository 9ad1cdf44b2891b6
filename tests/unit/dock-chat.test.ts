// The dock's Chat section (widgets/dock/chat-form.ts, chat.svelte.ts) with a fake control client:
// the thanks preview and its checks as the streamer types, a `bad_template` refusal on its field,
// unsaved edits kept from a save made elsewhere, the Send to chat box's checks and outcomes (a lost
// answer says may not have gone), Send again and It went of a thanks that may not have gone, and which push
// channel messages read the chat again.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_THANKS, type ChatStatus, type ThanksSettings } from '../../src/contract/chat.ts';
import type { SendResult } from '../../widgets/dock/actions.ts';
import { DockChat } from '../../widgets/dock/chat.svelte.ts';
import {
	formProblem,
	messageProblem,
	problemFix,
	refusedField,
	sentLine,
	thanksPreview,
	unsureLine
} from '../../widgets/dock/chat-form.ts';
import type { ChatResult, ControlClient } from '../../widgets/dock/control-client.ts';
import { liveReads, readsChat } from '../../widgets/dock/dock-live.ts';

const status = (thanks: ThanksSettings = DEFAULT_THANKS): ChatStatus => ({
	thanks,
	waiting: 0,
	problem: null,
	recent: [],
	unsure: []
});

/** An HTTP refusal as the control client answers it. */
const refusal = (status: number, code: string, error: string, retryAfterMs?: number) =>
	({ ok: false, kind: 'http', status, code, body: { error }, retryAfterMs }) as const;

function fake() {
	const server = { status: status() };
	const client = {
		chat: vi.fn(async (): Promise<ChatResult> => ({ ok: true, status: server.status })),
		saveThanks: vi.fn(async (t: ThanksSettings): Promise<ChatResult> => ({
			ok: true,
			status: status(t)
		})),
		sendChat: vi.fn(async (): Promise<SendResult> => ({
			ok: true,
			status: 200,
			body: { outcome: 'done', message: 'sent to chat' }
		})),
		resendChat: vi.fn(async (): Promise<SendResult> => ({
			ok: true,
			status: 200,
			body: { outcome: 'done', message: 'sent to chat' }
		})),
		dismissChat: vi.fn(async (): Promise<SendResult> => ({
			ok: true,
			status: 200,
			body: { outcome: 'done', message: 'taken off the list as sent' }
		}))
	};
	return { server, client, chat: new DockChat(client as unknown as ControlClient) };
}

describe('the thanks preview', () => {
	it('renders the one-tip and the burst template for the sample tippers', () => {
		const p = thanksPreview(DEFAULT_THANKS);
		expect(p.template).toEqual({ text: 'Thank you Ana for the $5.00 tip!' });
		expect(p.burst).toEqual({ text: 'Thanks Ana, Ben and Chloé!' });
		expect(formProblem(DEFAULT_THANKS)).toBeNull();
	});

	it('refuses a command, an unknown placeholder and an empty template', () => {
		const bad = { ...DEFAULT_THANKS, template: '!cmd {name}' };
		expect(thanksPreview(bad).template).toEqual({ problem: 'cannot start with / or !' });
		expect(formProblem(bad)).toBe('One tip: cannot start with / or !');
		const unknown = { ...DEFAULT_THANKS, burst: 'Thanks {who}' };
		expect(formProblem(unknown)).toMatch(/^Several tips: \{who\} is not a placeholder/);
		expect(formProblem({ ...DEFAULT_THANKS, template: '  ' })).toBe('One tip: empty');
	});

	it('places a bad_template refusal on its field', () => {
		expect(refusedField('template: cannot start with / or !')).toEqual({
			field: 'template',
			problem: 'cannot start with / or !'
		});
		expect(refusedField('burst: empty')?.field).toBe('burst');
		expect(refusedField('something else')).toBeNull();
	});
});

describe('Send to chat', () => {
	it('refuses an empty message, a command and one past 500 characters before sending', async () => {
		expect(messageProblem(' ')).toBe('empty');
		expect(messageProblem('/ban someone')).toMatch(/cannot start with \/ or !/);
		expect(messageProblem('!so someone')).toMatch(/cannot start with \/ or !/);
		expect(messageProblem('x'.repeat(501))).toMatch(/longer than 500/);
		expect(messageProblem('hello chat')).toBeNull();
		const t = fake();
		t.chat.message = '!cmd';
		await t.chat.send();
		expect(t.client.sendChat).not.toHaveBeenCalled();
		expect(t.chat.sendState?.kind).toBe('refused');
	});

	it('posts, says done and empties the box', async () => {
		const t = fake();
		t.chat.message = ' hello chat ';
		await t.chat.send();
		expect(t.client.sendChat).toHaveBeenCalledWith('hello chat');
		expect(t.chat.sendState).toEqual({ kind: 'done', text: 'sent to chat' });
		expect(t.chat.message).toBe('');
	});

	it('says when our chat budget lets it send again', async () => {
		const t = fake();
		t.client.sendChat.mockResolvedValueOnce(refusal(429, 'chat_budget', 'chat_budget', 12_300));
		t.chat.message = 'hello';
		await t.chat.send();
		expect(t.chat.sendState?.text).toBe('chat budget used up: can send again in 13 s');
		expect(t.chat.message).toBe('hello');
	});
});

describe('an answer that never came', () => {
	const lost = refusal(504, 'outcome_unknown', 'the tip service answered 504: it may have gone');

	it('says the message may not have gone, not that it failed, and empties the box', async () => {
		const t = fake();
		t.client.sendChat.mockResolvedValueOnce(lost);
		t.chat.message = 'BRB';
		await t.chat.send();
		expect(t.chat.sendState).toEqual({
			kind: 'unsure',
			text: 'may not have gone: look in your chat before sending it again'
		});
		expect(t.chat.message).toBe('');
	});

	it("Send again says how each thanks' press went, apart from the others", async () => {
		const t = fake();
		t.client.resendChat.mockResolvedValueOnce(lost);
		await t.chat.resend('m1');
		await t.chat.resend('m2');
		expect(t.client.resendChat.mock.calls).toEqual([['m1'], ['m2']]);
		expect(t.chat.unsureState.m1?.kind).toBe('unsure');
		expect(t.chat.unsureState.m2).toEqual({ kind: 'done', text: 'sent to chat' });
	});

	it('It went says it was taken off, or that another dock did first, one press at a time', async () => {
		const t = fake();
		let answer!: (r: SendResult) => void;
		t.client.dismissChat.mockReturnValueOnce(new Promise((res) => (answer = res)));
		const first = t.chat.seen('m1');
		expect(t.chat.unsureState.m1?.kind).toBe('marking');
		// Neither button presses again while the first press is on its way.
		await t.chat.seen('m1');
		await t.chat.resend('m1');
		expect(t.client.dismissChat.mock.calls).toEqual([['m1']]);
		expect(t.client.resendChat).not.toHaveBeenCalled();
		answer({
			ok: true,
			status: 200,
			body: { outcome: 'done', message: 'taken off the list as sent' }
		});
		await first;
		expect(t.chat.unsureState.m1).toEqual({ kind: 'done', text: 'taken off the list as sent' });

		t.client.dismissChat.mockResolvedValueOnce(
			refusal(
				404,
				'not_unsure',
				'no such thanks to take off the list (sent again, taken off already, or gone)'
			)
		);
		await t.chat.seen('m2');
		expect(t.chat.unsureState.m2).toEqual({
			kind: 'refused',
			text: 'no such thanks to take off the list (sent again, taken off already, or gone)'
		});
	});

	it('lists a thanks that may not have gone with its tippers', () => {
		const u = { id: 'm1', at: 'T', text: 'Thanks A and B!', tips: [] as never[] };
		const tips = [
			{ name: 'A', amount: 1 },
			{ name: 'B', amount: null }
		];
		expect(unsureLine({ ...u, tips }, () => '20:14')).toBe('20:14 · thanks for 2 tips: A, B');
		const sent = { at: 'T', text: 'x', kind: 'thanks', tips: 1, outcome: 'unsure' } as const;
		expect(sentLine(sent, () => '20:14')).toBe('20:14 · thanks · may not have gone');
		const seen = { ...sent, outcome: 'sent', code: 'seen' } as const;
		expect(sentLine(seen, () => '20:14')).toBe('20:14 · thanks · sent (seen in chat)');
	});
});

describe('the thanks form', () => {
	it('takes the settings read, saves the draft and says saved', async () => {
		const t = fake();
		await t.chat.read();
		expect(t.chat.draft).toEqual(DEFAULT_THANKS);
		expect(t.chat.dirty).toBe(false);
		t.chat.draft.enabled = true;
		expect(t.chat.dirty).toBe(true);
		await t.chat.save();
		expect(t.client.chat).toHaveBeenLastCalledWith({ ...DEFAULT_THANKS, enabled: true });
		expect(t.chat.saveState).toEqual({ kind: 'done', text: 'saved' });
		expect(t.chat.dirty).toBe(false);
	});

	it('keeps unsaved edits when another dock saves, and Reload takes its settings', async () => {
		const t = fake();
		await t.chat.read();
		t.chat.draft.template = 'Cheers {name}!';
		t.server.status = status({ ...DEFAULT_THANKS, enabled: true });
		await t.chat.read();
		expect(t.chat.draft.template).toBe('Cheers {name}!');
		expect(t.chat.newer?.enabled).toBe(true);
		t.chat.reload();
		expect(t.chat.draft).toEqual({ ...DEFAULT_THANKS, enabled: true });
		expect(t.chat.newer).toBeNull();
	});

	it('shows the server’s bad_template on its field', async () => {
		const t = fake();
		await t.chat.read();
		t.chat.draft.burst = 'Thanks all';
		t.client.chat.mockResolvedValueOnce(
			refusal(400, 'bad_template', 'burst: too long for a burst')
		);
		await t.chat.save();
		expect(t.chat.refused).toEqual({ field: 'burst', problem: 'too long for a burst' });
		expect(t.chat.saveState?.kind).toBe('refused');
	});
});

describe('the chat status', () => {
	it('says how to add chat:write, and lists a message with when and how it went', () => {
		const fix = problemFix({
			code: 'missing_scope',
			error: 'x',
			at: '',
			required_scope: 'chat:write'
		});
		expect(fix).toMatch(/chat:write.*Connect again in the preview; hosted: sign in again/);
		expect(problemFix({ code: 'bot_disabled', error: 'x', at: '' })).toMatch(
			/Switch it on in the dashboard/
		);
		const line = sentLine(
			{
				at: 'T',
				text: 'Thanks A and B!',
				kind: 'thanks',
				tips: 2,
				outcome: 'failed',
				code: 'bot_disabled'
			},
			() => '20:14'
		);
		expect(line).toBe('20:14 · thanks for 2 tips · failed (bot_disabled)');
	});

	it('is read again on its push message and after a (re)connect, and nothing else reads more', () => {
		expect(readsChat({ type: 'chat' })).toBe(true);
		expect(readsChat({ type: 'hello' })).toBe(true);
		expect(readsChat({ type: 'resync' })).toBe(true);
		expect(readsChat({ type: 'rules', version: 2 })).toBe(false);
		expect(liveReads({ type: 'chat' })).toEqual({ snapshots: [], rules: false });
	});
});
