// The streamer's chat bot (POST /chat/messages, docs/upstream.md "Chat"): its own budget per
// streamer, the dashboard's switches a test can flip (bot off, channel gone, not yet connected,
// gateway down), a test's lost answers (the message posted, its answer lost on the way back), and
// a log of what it said, newest first.
import { CHAT_BUDGET, CHAT_MESSAGE_MAX } from '../contract/chat.ts';
import { SimError } from './errors.ts';

export type ChatPlatform = 'twitch' | 'kick';

export interface ChatLogEntry {
	/** ISO time the bot said it. */
	at: string;
	text: string;
	platform: ChatPlatform | 'all';
	/** The credential's id and name (an API key or an OAuth authorization). */
	actor: { id: string; name: string };
}

export interface ChatSwitches {
	/** Switched off in the dashboard: 409 `bot_disabled`. */
	disabled: boolean;
	/** Not yet connected to the channel: 409 `bot_unavailable` (transient). */
	unavailable: boolean;
	/** 502 `gateway_unavailable` (transient). */
	gatewayDown: boolean;
	/** The platforms with a connected channel; a send to another is a 409. */
	channels: ChatPlatform[];
	/**
	 * The next `count` messages are posted and then their answer is lost: `504` answers a 504 with
	 * no body (a proxy in front of the chat that gave up), `late` answers after `delayMs`.
	 */
	lose: { mode: '504' | 'late'; count: number; delayMs: number } | null;
}

/** How a posted message's answer is lost (SimChat.takeLoss). */
export type AnswerLoss = { mode: '504' } | { mode: 'late'; delayMs: number };

const LOG_MAX = 200;

const defaults = (): ChatSwitches => ({
	disabled: false,
	unavailable: false,
	gatewayDown: false,
	channels: ['twitch', 'kick'],
	lose: null
});

/**
 * The documented codes of a message that is there but refused (checked before the route's schema,
 * whose generic 400 `bad_request` is for a missing one).
 */
export function checkChatMessage(body: unknown): void {
	const message = (body as { message?: unknown } | null)?.message;
	if (typeof message !== 'string') return;
	if (message.length > CHAT_MESSAGE_MAX)
		throw new SimError(400, 'message_too_long', `message: over ${CHAT_MESSAGE_MAX} characters`);
	if (/^[/!]/.test(message))
		throw new SimError(400, 'message_disallowed', 'message: cannot start with / or !');
}

export class SimChat {
	switches: ChatSwitches = defaults();
	private readonly sent: ChatLogEntry[] = [];
	/** Send times inside the current budget window (a sliding window of CHAT_BUDGET.perMs). */
	private times: number[] = [];

	constructor(private readonly now: () => number = Date.now) {}

	/** Validated body in, the bot's line logged; every refusal is a SimError. */
	send(message: string, platform: ChatPlatform | 'all', actor: { id: string; name: string }): void {
		checkChatMessage({ message });
		const s = this.switches;
		if (s.disabled) throw new SimError(409, 'bot_disabled', 'the chat bot is switched off');
		// docs/upstream.md: no channel shares its code with a transient state, so `error` says which.
		const wanted = platform === 'all' ? s.channels : s.channels.filter((p) => p === platform);
		if (wanted.length === 0)
			throw new SimError(
				409,
				'bot_unavailable',
				platform === 'all' ? 'no connected chat channel' : `no connected ${platform} channel`
			);
		if (s.unavailable)
			throw new SimError(409, 'bot_unavailable', 'the bot is not yet connected; retry shortly');
		if (s.gatewayDown)
			throw new SimError(502, 'gateway_unavailable', 'the chat gateway is unavailable');
		const now = this.now();
		this.times = this.times.filter((t) => now - t < CHAT_BUDGET.perMs);
		if (this.times.length >= CHAT_BUDGET.messages) {
			const retryAfter = Math.max(1, Math.ceil((this.times[0] + CHAT_BUDGET.perMs - now) / 1000));
			throw new SimError(429, null, 'too many chat messages for this streamer', {}, retryAfter);
		}
		this.times.push(now);
		this.sent.unshift({ at: new Date(now).toISOString(), text: message, platform, actor });
		this.sent.length = Math.min(this.sent.length, LOG_MAX);
	}

	/** A message just posted: whether its answer is lost, and how (counts down `lose`). */
	takeLoss(): AnswerLoss | null {
		const lose = this.switches.lose;
		if (!lose || lose.count <= 0) return null;
		lose.count -= 1;
		if (lose.count === 0) this.switches.lose = null;
		return lose.mode === '504' ? { mode: '504' } : { mode: 'late', delayMs: lose.delayMs };
	}

	/** What the bot said, newest first. */
	log(limit = LOG_MAX): ChatLogEntry[] {
		return this.sent.slice(0, limit);
	}

	/** Every switch back to a working bot (the log and the budget stay). */
	clearSwitches(): void {
		this.switches = defaults();
	}
}
