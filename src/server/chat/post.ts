// One message through the upstream's POST /chat/messages (docs/upstream.md, chat), and what its
// answer means for the sender: sent, not sent (try again later, how much later, or never), or
// unknown. The upstream takes no idempotency key, so only an answer that proves the message was not
// posted is tried again: a 429 (the upstream's, or our budget's before sending), 409
// `bot_unavailable`, 502 `gateway_unavailable`, a refusal of the credential or the channel, or a
// connection never made. A timeout, a connection cut after sending, or a 5xx without the documented
// code leaves it unknown: the message may have gone, and the kit never posts it again by itself.
// The upstream's own code is kept, so the dock says what is wrong in the streamer's terms.
import { ApiErrorBody, MissingScopeBody, ROUTES } from '../../contract/index.ts';
import { backoffDelay, retryAfterMs } from '../../core/backoff.ts';
import { answerOf } from '../control-actions.ts';
import { UpstreamUnavailable, type UpstreamClient } from '../upstream.ts';

export type ChatOutcome =
	| { ok: true }
	/** No answer that says: the message may have gone out. Never posted again by the kit. */
	| { ok: false; retry: 'unknown'; problem: { code: 'outcome_unknown'; error: string } }
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

/** The sentence of an unknown outcome: what happened, and that it may have gone. */
const unknown = (what: string): ChatOutcome => ({
	ok: false,
	retry: 'unknown',
	problem: {
		code: 'outcome_unknown',
		error: `${what}: the message may have gone to chat (look in the chat before sending it again)`
	}
});

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
	try {
		res = await up.call(ROUTES.chatSend.method, ROUTES.chatSend.path, JSON.stringify({ message }));
	} catch (err) {
		if (err instanceof UpstreamUnavailable && err.notSent) return soon('unreachable');
		return unknown('the chat did not answer in time, or the connection was cut');
	}
	// A 200 is a message posted, whatever its body: never sent again.
	if (res.ok) {
		await res.body?.cancel().catch(() => {});
		return { ok: true };
	}
	// The status alone decides below when the body cannot be read.
	const data = await answerOf(res).catch(() => null);
	const body = ApiErrorBody.safeParse(data);
	const code = body.success ? body.data.code : undefined;
	const said = body.success ? body.data.error : `the tip service answered ${res.status}`;
	// The chat budget's 429 says its wait in Retry-After; the RateLimit-* headers beside it are the
	// key's budget (docs/upstream.md): Retry-After first.
	if (res.status === 429) {
		const headers = res.headers;
		const wait = (name: string) =>
			name === 'RateLimit-Reset' && headers.has('Retry-After') ? null : headers.get(name);
		return soon('rate_limited', retryAfterMs(wait, attempt, random));
	}
	// A 409 bot_unavailable may also be a platform with no connected channel (docs/upstream.md,
	// chat): tried again either way, with the upstream's own sentence, which tells them apart.
	if (res.status === 409 && code === 'bot_unavailable')
		return soon(code, undefined, body.success ? said : undefined);
	if (res.status === 502 && code === 'gateway_unavailable') return soon(code);
	// Any other 5xx (a proxy's bodiless 504, a crash of the upstream's) may come after the post.
	if (res.status >= 500) return unknown(`the tip service answered ${res.status}`);
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
