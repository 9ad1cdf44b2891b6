// The preview's Chat panel in demo mode: what the simulator's chat bot said (GET /demo/chat), so
// the dock's thanks in chat and Send to chat can be seen without an account. Read when the push
// channel opens (its hello), again on its `chat` message (a thanks or a message posted) and after a
// reconnect, as the dock reads its Chat section (dock-live.ts, readsChat); never polled. And a
// line typed in the simulator's chat as a viewer or a moderator (POST /demo/chat-line): the
// custom command it names runs, and the kit acts on it (docs/dock.md, Chat commands).
import { z } from 'zod/mini';
import type { ApiClient } from '../../src/client/api.ts';
import { LiveChannel } from '../../src/client/live.ts';
import { coalesced } from '../../src/core/coalesce.ts';
import { readsChat } from '../dock/dock-live.ts';

const DemoChatBody = z.object({
	messages: z.array(z.object({ at: z.string(), text: z.string(), platform: z.string() }))
});
const SaidBody = z.object({ ran: z.boolean(), why: z.optional(z.string()) });
export type DemoChatMessage = z.infer<typeof DemoChatBody>['messages'][number];

export class DemoChat {
	/** Newest first; null until read. */
	messages = $state.raw<DemoChatMessage[] | null>(null);
	/** Why the log could not be read; null when it was. */
	problem = $state<string | null>(null);
	#live: LiveChannel | null = null;

	constructor(
		private readonly api: ApiClient,
		private readonly key: string
	) {}

	/** What became of the last line typed: `ran`, or why the chat ran no command. */
	typed = $state<string | null>(null);

	/** A chat line typed as a viewer or a moderator. */
	async say(line: string, as: 'viewer' | 'moderator'): Promise<void> {
		const res = await fetch('/demo/chat-line', {
			method: 'POST',
			headers: { 'x-overlay-key': this.key, 'content-type': 'application/json' },
			body: JSON.stringify({ line, as })
		}).catch(() => null);
		const body = SaidBody.safeParse(res?.ok ? await res.json().catch(() => null) : null);
		if (!body.success) this.typed = `not sent${res ? ` (${res.status})` : ''}`;
		else
			this.typed = body.data.ran
				? 'a command ran'
				: `no command ran (${body.data.why ?? 'plain line'})`;
	}

	/** The channel's hello reads the log; a channel that cannot connect still has it read once. */
	start(): this {
		this.#live = new LiveChannel({
			api: this.api,
			onMessage: (m) => {
				if (readsChat(m)) void this.read();
			},
			onState: (state) => {
				if (state === 'down' && this.messages === null) void this.read();
			}
		}).start();
		return this;
	}

	close(): void {
		this.#live?.close();
	}

	/** One read at a time; a message heard meanwhile reads once more after it. */
	readonly read = coalesced(async () => {
		const res = await fetch('/demo/chat', { headers: { 'x-overlay-key': this.key } }).catch(
			() => null
		);
		const body = DemoChatBody.safeParse(res?.ok ? await res.json().catch(() => null) : null);
		if (body.success) {
			this.messages = body.data.messages;
			this.problem = null;
		} else this.problem = `the chat log could not be read${res ? ` (${res.status})` : ''}`;
	});
}
