// The dock's Chat section (docs/dock.md, "Thanks in chat"): the chat's status as GET /control/chat
// says it (read on open, on the push channel's `chat` message and on hello/resync; never polled),
// the thanks form's draft kept apart from what another dock saves meanwhile (form-draft.svelte.ts,
// as the Rules form's is), the Send to chat box, and Send again or It went of a thanks that may not
// have gone.
import { DEFAULT_THANKS, type ChatStatus, type ThanksSettings } from '../../src/contract/chat.ts';
import { actionOutcome, type Outcome } from './actions.ts';
import { messageProblem, refusedField, sameThanks, type ThanksField } from './chat-form.ts';
import type { ControlClient } from './control-client.ts';
import { FormDraft } from './form-draft.svelte.ts';

type State = {
	kind: Outcome['kind'] | 'saving' | 'sending' | 'marking' | 'unsure';
	text: string;
} | null;

export class DockChat extends FormDraft<ThanksSettings, ThanksSettings> {
	/** The chat's status as last read or saved; null until read. */
	status = $state.raw<ChatStatus | null>(null);
	/** Why the status could not be read; null when it was. */
	readProblem = $state<string | null>(null);
	/** The last save: saving, saved, or why not. */
	saveState = $state<State>(null);
	/** The server's refusal of one template (400 `bad_template`), shown on that field. */
	refused = $state<{ field: ThanksField; problem: string } | null>(null);
	/** The Send to chat box and its last outcome. */
	message = $state('');
	sendState = $state<State>(null);
	/**
	 * Send again or It went, by the id of the thanks it was pressed for: sending, marking, or how
	 * the press went (one press per thanks at a time).
	 */
	unsureState = $state<Record<string, State>>({});

	readonly #client: ControlClient;
	#reads = 0;

	constructor(client: ControlClient) {
		super({ ...DEFAULT_THANKS });
		this.#client = client;
	}

	protected formOf(t: ThanksSettings): ThanksSettings {
		return { ...t };
	}
	protected shows(form: ThanksSettings, t: ThanksSettings): boolean {
		return sameThanks(form, t);
	}
	protected isNewer(t: ThanksSettings, base: ThanksSettings): boolean {
		return !sameThanks(base, t);
	}
	protected override taken(): void {
		this.refused = null;
	}

	/**
	 * GET /control/chat; a later read's answer wins over an earlier one's. Its settings replace the
	 * draft unless the draft has edits of its own.
	 */
	async read(): Promise<void> {
		const n = ++this.#reads;
		const res = await this.#client.chat();
		if (n !== this.#reads) return;
		this.readProblem = res.ok ? null : `could not read the chat: ${actionOutcome(res).text}`;
		if (!res.ok) return;
		this.status = res.status;
		this.adopt(res.status.thanks);
	}

	/** "Reload": the settings saved elsewhere replace the draft's edits. */
	reload(): void {
		this.reloadDraft();
		this.saveState = null;
	}

	/** Save: checked as the form shows it (Save is off while a template has a problem). */
	async save(): Promise<void> {
		if (this.baseline === null || this.saveState?.kind === 'saving') return;
		const sent = { ...this.draft };
		this.saveState = { kind: 'saving', text: 'saving…' };
		this.refused = null;
		const res = await this.#client.chat(sent);
		if (res.ok) {
			this.status = res.status;
			this.saved(res.status.thanks, !sameThanks(this.draft, sent));
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
		// An unknown outcome may have gone: the box empties as for one sent, not to be sent twice.
		if ((o.kind === 'done' || unsure(res)) && this.message.trim() === message) this.message = '';
		this.sendState = sendState(o, res);
	}

	/**
	 * Send again of a thanks that may not have gone (its `id`): pressed once per id at a time; the
	 * status (re-read on the push channel's `chat`) then lists it no more, or again.
	 */
	async resend(id: string): Promise<void> {
		if (this.#pressing(id)) return;
		this.unsureState = { ...this.unsureState, [id]: { kind: 'sending', text: 'sending…' } };
		const res = await this.#client.resendChat(id);
		this.unsureState = { ...this.unsureState, [id]: sendState(actionOutcome(res), res) };
	}

	/**
	 * It went: the streamer saw that thanks (its `id`) in chat; the server takes it off the list as
	 * sent, posting nothing. A 404 says it was not listed any more (sent again or taken off
	 * elsewhere).
	 */
	async seen(id: string): Promise<void> {
		if (this.#pressing(id)) return;
		this.unsureState = { ...this.unsureState, [id]: { kind: 'marking', text: 'taking it off…' } };
		const o = actionOutcome(await this.#client.dismissChat(id));
		this.unsureState = { ...this.unsureState, [id]: { kind: o.kind, text: o.text } };
	}

	/** Whether Send again or It went of that thanks is on its way. */
	#pressing(id: string): boolean {
		const kind = this.unsureState[id]?.kind;
		return kind === 'sending' || kind === 'marking';
	}
}

type Answer = Awaited<ReturnType<ControlClient['sendChat']>>;

/** 504 `outcome_unknown`: the message was posted and no answer said whether chat took it. */
const unsure = (res: Answer) => !res.ok && res.kind === 'http' && res.code === 'outcome_unknown';

/**
 * Our own budget's 429 says when it can send again; an unknown outcome that the message may not
 * have gone (not that it failed); other outcomes as the dock says them.
 */
function sendState(o: Outcome, res: Answer): NonNullable<State> {
	if (unsure(res))
		return { kind: 'unsure', text: 'may not have gone: look in your chat before sending it again' };
	if (res.ok || res.kind !== 'http' || res.code !== 'chat_budget')
		return { kind: o.kind, text: o.text };
	const s = Math.ceil((res.retryAfterMs ?? 0) / 1000);
	const text =
		s > 0 ? `chat budget used up: can send again in ${s} s` : 'chat budget used up: try again';
	return { kind: o.kind, text };
}
