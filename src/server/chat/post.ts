// One message through the upstream's POST /chat/messages (docs/upstream.md, chat), and what its
// answer means for the sender: sent, try again later (how much later), or never. The upstream's
// own code is kept, so the dock says what is wrong in the streamer's terms.
import { ApiErrorBody, MissingScopeBody, ROUTES } from '../../contract/index.ts';
import { backoffDelay, retryAfterMs } from '../../core/backoff.ts';
import { answerOf } from '../control-actions.ts';
import type { UpstreamClient } from '../upstream.ts';

export type ChatOutcome =
	| { ok: true }
	| {
			ok: false;
			/** `soon`: it clears by itself; `streamer`: the streamer must act; `never`: this message. */
			retry: 'soon' | 'streamer' | 'never';
			/** For `soon`: how long to wait (the upstream's Retry-After on a 429). */
			waitMs?: number;
			/** What the dock shows (contract/chat.ts, ChatProblem, without its time). */
			problem: { code: string; error: string; required_scope?: string };
	  };

/** How long a problem the streamer must fix waits before the next try. */
export const STREAMER_RETRY_MS = 30_000;

/** What each refusal means, in the streamer's words (the dock adds how to fix it). */
const SENTENCES: Record<string, string> = {
	bot_disabled: "the chat bot is switched off in the tip service's dashboard",
	bot_unavailable: 'the chat bot is not connected to the channel yet',
	gateway_unavailable: "the tip service's chat gateway cannot be reached",
	rate_limited: "the chat's budget (20 messages per 30 seconds) is spent",
	no_channel: 'no chat channel (Twitch or Kick) is connected on the tip service',
	message_too_long: 'the message is longer than 500 characters',
	message_disallowed: 'the chat refused the message (a command or disallowed content)',
	unauthorized: "the tip service refused the server's credential",
	unreachable: 'the tip service cannot be reached'
};

export async function postChat(
	up: UpstreamClient,
	message: string,
	attempt: number,
	random: () => number = Math.random
): Promise<ChatOutcome> {
	const soon = (code: string, waitMs?: number, error?: string): ChatOutcome => ({
		ok: false,
		retry: 'soon',
		waitMs: waitMs ?? backoffDelay(attempt, { baseMs: 2000, maxMs: 60_000, random }),
		problem: { code, error: error ?? SENTENCES[code] ?? SENTENCES.unreachable }
	});
	let res: Response;
	let data: unknown;
	try {
		res = await up.call(ROUTES.chatSend.method, ROUTES.chatSend.path, JSON.stringify({ message }));
		// A 200 is a message posted, whatever its body: never sent again.
		if (res.ok) {
			await res.body?.cancel().catch(() => {});
			return { ok: true };
		}
		data = await answerOf(res);
	} catch {
		return soon('unreachable');
	}
	const body = ApiErrorBody.safeParse(data);
	const code = body.success ? body.data.code : undefined;
	const said = body.success ? body.data.error : `the tip service answered ${res.status}`;
	if (res.status === 429) return soon('rate_limited', retryAfterMs(res.headers, attempt, random));
	// A 409 bot_unavailable may also be a platform with no connected channel (docs/upstream.md,
	// chat): tried again either way, with the upstream's own sentence, which tells them apart.
	if (code === 'bot_unavailable') return soon(code, undefined, body.success ? said : undefined);
	if (res.status >= 500) return soon(code ?? 'gateway_unavailable');
	const needs = (c: string, error = SENTENCES[c] ?? said, extra = {}): ChatOutcome => ({
		ok: false,
		retry: 'streamer',
		problem: { code: c, error, ...extra }
	});
	const scope = MissingScopeBody.safeParse(data);
	if (res.status === 403 && scope.success)
		return needs('missing_scope', `the connection lacks the scope ${scope.data.required_scope}`, {
			required_scope: scope.data.required_scope
		});
	if (res.status === 401) return needs('unauthorized');
	// A 409 without bot_disabled is a chat platform with no connected channel (docs/upstream.md).
	if (res.status === 409) return needs(code === 'bot_disabled' ? code : 'no_channel');
	const c = code ?? 'bad_request';
	return { ok: false, retry: 'never', problem: { code: c, error: SENTENCES[c] ?? said } };
}
