// The dock's Chat section (docs/dock.md, "Thanks in chat"): the chat's status as GET /control/chat
// says it (read on open, on the push channel's `chat` message and on hello/resync; never polled),
// the thanks form's draft kept apart from what another dock saves meanwhile (as the Rules form's
// is), and the Send to chat box.
import { DEFAULT_THANKS, type ChatStatus, type ThanksSettings } from '../../src/contract/chat.ts';
import { actionOutcome, type Outcome } from './actions.ts';
import { messageProblem, refusedField, sameThanks, type ThanksField } from './chat-form.ts';
import type { ControlClient } from './control-client.ts';

type State = { kind: Outcome['kind'] | 'saving' | 'sending'; text: string } | null;

export class DockChat {
	/** The chat's status as last read or saved; null until read. */
	status = $state.raw<ChatStatus | null>(null);
	/** The thanks form as the streamer edits it. */
	draft = $state<ThanksSettings>({ ...DEFAULT_THANKS });
	/** Settings saved elsewhere since the draft's, while the draft has unsaved edits. */
	newer = $state.raw<ThanksSettings | null>(null);
	/** Why the status could not be read; null when it was. */
	readProblem = $state<string | null>(null);
	/** The last save: saving, saved, or why not. */
	saveState = $state<State>(null);
	/** The server's refusal of one template (400 `bad_template`), shown on that field. */
	refused = $state<{ field: ThanksField; problem: string } | null>(null);
	/** The Send to chat box and its last outcome. */
	message = $state('');
	sendState = $state<State>(null);

	#baseline = $state.raw<ThanksSettings | null>(null);
	readonly #client: ControlClient;
	#reads = 0;

	constructor(client: ControlClient) {
		this.#client = client;
	}

	get dirty(): boolean {
		const base = this.#baseline;
		return base !== null && !sameThanks(this.draft, base);
	}

	/** GET /control/chat; a later read's answer wins over an earlier one's. */
	async read(): Promise<void> {
		const n = ++this.#reads;
		const res = await this.#client.chat();
		if (n !== this.#reads) return;
		this.readProblem = res.ok ? null : `could not read the chat: ${actionOutcome(res).text}`;
		if (res.ok) this.#adopt(res.status);
	}

	/** A status read: its settings replace the draft unless the draft has edits of its own. */
	#adopt(s: ChatStatus): void {
		this.status = s;
		const base = this.#baseline;
		if (base !== null && sameThanks(base, s.thanks)) return;
		if (base === null || !this.dirty || sameThanks(this.draft, s.thanks)) this.#take(s.thanks);
		else this.newer = s.thanks;
	}

	#take(t: ThanksSettings): void {
		this.#baseline = t;
		this.draft = { ...t };
		this.newer = null;
		this.refused = null;
	}

	/** "Reload": the settings saved elsewhere replace the draft's edits. */
	reload(): void {
		if (this.newer) this.#take(this.newer);
		this.saveState = null;
	}

	/** Save: checked as the form shows it (Save is off while a template has a problem). */
	async save(): Promise<void> {
		if (this.#baseline === null || this.saveState?.kind === 'saving') return;
		const sent = { ...this.draft };
		this.saveState = { kind: 'saving', text: 'saving…' };
		this.refused = null;
		const res = await this.#client.chat(sent);
		if (res.ok) {
			this.status = res.status;
			const typed = !sameThanks(this.draft, sent);
			if (typed) {
				this.#baseline = res.status.thanks;
				this.newer = null;
			} else this.#take(res.status.thanks);
			this.saveState = { kind: 'done', text: 'saved' };
			return;
		}
		const o = actionOutcome(res);
		if (o.kind === 'refused') this.refused = refusedField(o.text);
		this.saveState = { kind: o.kind, text: o.text };
	}

	/** Send to chat: refused here as the upstream would, else posted; the box empties when sent. */
	async send(): Promise<void> {
		if (this.sendState?.kind === 'sending') return;
		const message = this.message.trim();
		const problem = messageProblem(message);
		if (problem) {
			this.sendState = { kind: 'refused', text: problem };
			return;
		}
		this.sendState = { kind: 'sending', text: 'sending…' };
		const res = await this.#client.sendChat(message);
		const o = actionOutcome(res);
		if (o.kind === 'done' && this.message.trim() === message) this.message = '';
		this.sendState = { kind: o.kind, text: sendText(o, res) };
	}
}

/** Our own budget's 429 says when it can send again; other outcomes as the dock says them. */
function sendText(o: Outcome, res: Awaited<ReturnType<ControlClient['sendChat']>>): string {
	if (res.ok || res.kind !== 'http' || res.code !== 'chat_budget') return o.text;
	const s = Math.ceil((res.retryAfterMs ?? 0) / 1000);
	return s > 0 ? `chat budget used up: can send again in ${s} s` : 'chat budget used up: try again';
}
