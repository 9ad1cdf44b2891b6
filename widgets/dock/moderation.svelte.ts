// The dock's part of moderation (moderation.md): the streamer's rules, read and saved, with the
// Rules form's edits kept apart from what another dock saves meanwhile; Approve and Reject of a
// held tip or video; Reveal of a held tip's message as the viewer wrote it. The held items
// themselves are in the dock's model (the TTS and media queues as /control/api gives them, each
// item with its decision).
import type { StoredRules } from '../../src/contract/index.ts';
import { actionOutcome, type Outcome } from './actions.ts';
import type { ControlClient } from './control-client.ts';
import { FormDraft } from './form-draft.svelte.ts';
import type { Snapshot } from './dock-model.ts';
import type { HeldItem } from './moderation.ts';
import {
	describeRefusal,
	formFromRules,
	NO_RULES,
	rulesFromForm,
	sameRules,
	type RulesForm
} from './rules-form.ts';

export interface ModerationHost {
	client: ControlClient;
	/** One press of a button (`id` busy meanwhile); its outcome, if any, shows under `show`. */
	press(id: string, show: string, run: () => Promise<Outcome | null>): Promise<void>;
	/** Reads these snapshots again at once. */
	reread(snapshots: Snapshot[]): void;
}

/** Where the Held section's buttons show what they did (one line for the section). */
export const HELD_OUTCOME = 'held';

export class DockModeration extends FormDraft<StoredRules, RulesForm> {
	/** The rules as last read or saved; null until read. */
	stored = $state.raw<StoredRules | null>(null);
	/** Why the rules could not be read; null when they were. */
	readProblem = $state<string | null>(null);
	/** The last save: saving, saved, or why not (`text`). */
	saveState = $state<{ kind: Outcome['kind'] | 'saving'; text: string } | null>(null);
	/** Held tips' messages as the viewer wrote them, by order id (null: it has none). */
	revealed = $state<Record<string, string | null>>({});

	readonly #host: ModerationHost;

	constructor(host: ModerationHost) {
		super(formFromRules(NO_RULES));
		this.#host = host;
	}

	protected formOf(s: StoredRules): RulesForm {
		return formFromRules(s.rules);
	}
	protected shows(form: RulesForm, s: StoredRules): boolean {
		return sameRules(form, formFromRules(s.rules), s.rules);
	}
	protected isNewer(s: StoredRules, base: StoredRules): boolean {
		return s.version > base.version;
	}
	protected override taken(s: StoredRules): void {
		this.stored = s;
	}

	/**
	 * Rules read: they replace the draft unless it has edits of its own, which a read never
	 * overwrites (`newer` says the rules changed elsewhere, and `reloadRules` takes them).
	 */
	async readRules(): Promise<void> {
		const res = await this.#host.client.rules();
		if (!res.ok) {
			this.readProblem = `could not read the rules: ${actionOutcome(res).text}`;
			return;
		}
		this.readProblem = null;
		if (this.adopt(res.stored)) this.stored = res.stored;
	}

	/** "Reload rules": the rules saved elsewhere replace the draft's edits. */
	reloadRules(): void {
		this.reloadDraft();
		this.saveState = null;
	}

	/** Save: the draft's rules, checked here first, then by the server (which names a bad field). */
	async save(): Promise<void> {
		const base = this.baseline;
		if (base === null || this.saveState?.kind === 'saving') return;
		const made = rulesFromForm(this.draft, base.rules);
		if (!made.ok) {
			this.saveState = { kind: 'refused', text: made.error };
			return;
		}
		this.saveState = { kind: 'saving', text: 'saving…' };
		const res = await this.#host.client.saveRules(made.rules);
		if (res.ok) {
			// Edits typed while it saved stay (the draft is then ahead of the saved rules).
			this.saved(res.stored, !sameRules(this.draft, formFromRules(made.rules), base.rules));
			this.stored = res.stored;
			this.saveState = { kind: 'done', text: 'saved' };
			return;
		}
		const o = actionOutcome(res);
		const text = o.kind === 'refused' ? describeRefusal(o.text, made.origins) : o.text;
		this.saveState = { kind: o.kind, text };
	}

	/**
	 * Approve or Reject a held tip (read aloud, or as the rules' onReject says) or video (played,
	 * or removed).
	 */
	settle(verdict: 'approve' | 'reject', held: HeldItem): Promise<void> {
		const { queue, item } = held;
		return this.#host.press(settleId(verdict, held), HELD_OUTCOME, async () => {
			const res = await this.#host.client.settle(verdict, item.order_id, queue);
			// Done or not, the queue says what the item is now (a refusal may mean another dock
			// did); a tip's Approve or Reject may have settled its video too.
			this.#host.reread(queue === 'media' ? ['media'] : ['tts', 'media']);
			const name = queue === 'media' ? item.donor_name : item.name;
			const o = actionOutcome(res);
			return settledOutcome(verdict, queue, name, o, res.ok ? res.body : null);
		});
	}

	/** Reveal: the held tip's message as written, shown until Hide. */
	reveal(orderId: string): Promise<void> {
		return this.#host.press(`reveal:${orderId}`, HELD_OUTCOME, async () => {
			const res = await this.#host.client.message(orderId);
			if (res.ok) {
				this.revealed[orderId] = res.message;
				return null;
			}
			const o = actionOutcome(res);
			return { ...o, text: `reveal: ${o.text}` };
		});
	}

	hide(orderId: string): void {
		delete this.revealed[orderId];
	}
}

/** The busy id of a Held row's Approve or Reject (a video has its tip's order id). */
export function settleId(verdict: 'approve' | 'reject', held: HeldItem): string {
	const id = held.item.order_id;
	return held.queue === 'media' ? `${verdict}:media:${id}` : `${verdict}:${id}`;
}

/** An Approve or Reject answer in words, naming the tip or video (its row may be gone by then). */
function settledOutcome(
	verdict: 'approve' | 'reject',
	queue: 'tts' | 'media',
	name: string,
	o: Outcome,
	body: unknown
): Outcome {
	const whose = `${name}’s ${queue === 'media' ? 'video' : 'tip'}`;
	if (o.kind === 'already') return { ...o, text: `already decided: ${whose} is no longer held` };
	if (o.kind !== 'done')
		return { ...o, text: `${verdict === 'approve' ? 'Approve' : 'Reject'} ${whose}: ${o.text}` };
	if (queue === 'media')
		return verdict === 'approve'
			? { ...o, text: `approved: ${whose} will play` }
			: { ...o, text: `rejected: ${whose} is removed` };
	if (verdict === 'approve') return { ...o, text: `approved: ${whose} will be read` };
	const outcome = (body as { decision?: { outcome?: unknown } } | null)?.decision?.outcome;
	const then = outcome === 'remove' ? 'is removed' : 'shows without voice or message';
	return { ...o, text: `rejected: ${whose} ${then}` };
}
