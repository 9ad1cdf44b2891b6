// A dock form's draft beside what is stored (the Rules form, moderation.svelte.ts; the thanks
// form, chat.svelte.ts): a read replaces the draft unless the draft has edits of its own, which no
// read overwrites (`newer` then holds what was saved elsewhere, and reload() takes it); a save's
// answer becomes the baseline, and edits typed while it ran stay.

/** `S`: the stored value as the server answers it; `F`: the form the streamer edits. */
export abstract class FormDraft<S, F> {
	/** The form as the streamer edits it (the inputs are bound to it). */
	draft = $state() as F;
	/** Saved elsewhere since the draft's baseline, while the draft has unsaved edits. */
	newer = $state.raw<S | null>(null);
	/** What the draft was made from; null until read. */
	#baseline = $state.raw<S | null>(null);

	constructor(empty: F) {
		this.draft = empty;
	}

	/** The form of a stored value. */
	protected abstract formOf(s: S): F;
	/** The form shows exactly the stored value. */
	protected abstract shows(form: F, s: S): boolean;
	/** A read of `s` changes something over `base` (not the same, nor an older one). */
	protected abstract isNewer(s: S, base: S): boolean;
	/** The draft was made from `s` (a read taken, Reload, a save). */
	protected taken(_s: S): void {}

	protected get baseline(): S | null {
		return this.#baseline;
	}

	/** The draft differs from what it was made from. */
	get dirty(): boolean {
		const base = this.#baseline;
		return base !== null && !this.shows(this.draft, base);
	}

	/** A read: taken, or kept as `newer` under the draft's edits; false when it changes nothing. */
	protected adopt(s: S): boolean {
		const base = this.#baseline;
		if (base !== null && !this.isNewer(s, base)) return false;
		if (base === null || !this.dirty || this.shows(this.draft, s)) this.#take(s);
		else this.newer = s;
		return true;
	}

	/** "Reload": what was saved elsewhere replaces the draft's edits. */
	protected reloadDraft(): void {
		if (this.newer) this.#take(this.newer);
	}

	/** A save's answer; `typed`: the draft was edited while the save ran, and keeps its edits. */
	protected saved(answer: S, typed: boolean): void {
		if (!typed) return this.#take(answer);
		this.#baseline = answer;
		this.newer = null;
	}

	#take(s: S): void {
		this.#baseline = s;
		this.draft = this.formOf(s);
		this.newer = null;
		this.taken(s);
	}
}
