// Thanks in chat (docs/dock.md, "Thanks in chat"): a tip is thanked once, after its alert was read
// on stream. The finish a page sends through /api (routes/proxy.ts) marks it: an entry is written
// before the finish goes upstream and made `owed` by its 200 when moderation decided the tip `read`
// (a removed, voiceless or held tip is never thanked, an approved one when it is read). A sender
// then takes the owed entries under the chat budget and posts them as one message (a burst).
// A message whose outcome no answer told (chat/post.ts) is never posted again by itself: its tips
// are listed `unsure` in the dock, whose Send again (resend) posts it once more.
// Everything lives in the store (store.ts), so copies, instances and restarts share it; the timers
// here only say when to look again, and there are none while nothing is owed.
import { randomUUID } from 'node:crypto';
import { z } from 'zod/mini';
import { ROUTES, type HistoryTip } from '../../contract/index.ts';
import type { ThanksSettings } from '../../contract/chat.ts';
import { coalesced } from '../../core/coalesce.ts';
import type { ModerationStore } from '../moderation/store.ts';
import type { UpstreamClient } from '../upstream.ts';
import { ask } from '../control-actions.ts';
import { leftUnsure, settlePost, takeDue, thanksText } from './changes.ts';
import {
	messageOf,
	gather,
	GATHER_MS,
	nextWake,
	STALE_MS,
	type ChatState,
	type Entry
} from './ledger.ts';
import { postChat, STREAMER_RETRY_MS, type ChatOutcome } from './post.ts';
import type { ChatStore } from './store.ts';
import { SettleLater } from './settle-later.ts';
import { seenByStreamer, sendAgain, sendFromDock } from './dock-sends.ts';
import { TenantInfo } from './tenant.ts';

export interface ThankerOptions {
	store: ChatStore;
	moderation: ModerationStore;
	/** The streamer's upstream client, for a sender resumed outside a request. */
	upstreamOf: (streamer: string) => UpstreamClient;
	/**
	 * Single mode: this process is the store's only writer, so an entry left `finishing` or `sending`
	 * before it started was left by a process that stopped, and is settled at once. Otherwise (hosted
	 * mode's instances) such an entry is settled once it is STALE_MS old.
	 */
	soleWriter?: boolean;
	/** A thanks posted: its tips, for the Activity (activity/recorder.ts, thanked). */
	posted?: (streamer: string, sent: ThanksPosted) => void;
	now?: () => number;
}

/** A thanks message that went out: its id, its text, and the tips it thanked (by order id). */
export type ThanksPosted = { msg: string; text: string; at: number; tips: TipThanked[] };
type TipThanked = { orderId: string; name: string };

/** A tip as its finish (or the played history) gave it. */
export type ReadTip = Pick<HistoryTip, 'name' | 'amount' | 'is_replay' | 'is_sub_reward'>;

/** What a thanks needs of a finish's answer, read leniently: the rest of the tip is not ours. */
const FinishAnswer = z.looseObject({
	tip: z.looseObject({
		name: z.string(),
		amount: z.nullable(z.number()),
		is_replay: z._default(z.boolean(), false),
		is_sub_reward: z._default(z.boolean(), false)
	})
});

/** Tries of a thanks before it is sent without the tenant's currency, when GET /me keeps failing. */
const CURRENCY_TRIES = 2;

const logged = (err: unknown) =>
	console.error('[chat] the thanks ledger could not be written:', (err as Error).message);

export class Thanker {
	readonly store: ChatStore;
	readonly #o: ThankerOptions;
	readonly #now: () => number;
	readonly #timers = new Map<string, { at: number; timer: ReturnType<typeof setTimeout> }>();
	/** Per streamer: its run, one at a time (core/coalesce.ts). */
	readonly #runs = new Map<string, () => Promise<void>>();
	readonly #tenant: TenantInfo;
	readonly #settleLater: SettleLater;
	#closed = false;
	readonly #startedAt: number;
	#sweep: ReturnType<typeof setInterval> | null = null;

	constructor(o: ThankerOptions) {
		this.#o = o;
		this.store = o.store;
		this.#now = o.now ?? Date.now;
		this.#startedAt = this.#now();
		this.#tenant = new TenantInfo(this.#now);
		this.#settleLater = new SettleLater(this.#now);
	}

	/**
	 * Resumes every streamer with entries left: now (what a stopped run left), and with `sweepMs`
	 * every sweepMs until close() (hosted mode: thanks left owed by an instance that stopped). A
	 * failure is logged, and the next sweep tries again.
	 */
	start(sweepMs?: number): void {
		const resume = () =>
			this.store
				.busy()
				.then((streamers) => streamers.forEach((streamer) => this.wake(streamer)))
				.catch((err: Error) => console.error('[chat] resuming thanks:', err.message));
		void resume();
		if (sweepMs === undefined) return;
		this.#sweep = setInterval(resume, sweepMs);
		this.#sweep.unref?.();
	}

	/**
	 * Before a page's finish goes upstream: notes the tip, when thanks are on and it has no entry.
	 * Never throws: thanks that cannot be kept never hold an alert (the failure is logged).
	 */
	async beforeFinish(streamer: string, orderId: string): Promise<void> {
		const now = this.#now();
		try {
			// A read first: with thanks off (the default) a finish costs no write nor lock.
			const was = await this.store.read(streamer, [orderId]);
			if (!was.thanks.enabled || was.entries[orderId]) return;
			await this.store.update(
				streamer,
				(s) => {
					if (s.thanks.enabled && !s.entries[orderId])
						s.entries[orderId] = { state: 'finishing', at: now };
				},
				[orderId]
			);
		} catch (err) {
			logged(err);
		}
	}

	/**
	 * A finish's 200: the entry is owed when the tip may be thanked, else done. A finish that failed
	 * leaves its entry: another copy's finish of the tip may have gone through (its 200 settles it),
	 * and what no answer settled is looked up in the played history once STALE_MS old. A finish whose
	 * note the store did not take (beforeFinish) is settled all the same, and what the store does not
	 * take now is tried again (settle-later.ts). Never throws.
	 */
	afterFinish(streamer: string, orderId: string, answer: unknown): Promise<void> {
		return this.#afterFinish(streamer, orderId, answer, 0, this.#now());
	}

	async #afterFinish(
		streamer: string,
		orderId: string,
		answer: unknown,
		attempt: number,
		since: number
	): Promise<void> {
		const read = FinishAnswer.safeParse(answer);
		if (!read.success) return;
		try {
			const state = await this.store.read(streamer, [orderId]);
			const entry = state.entries[orderId];
			if (entry ? entry.state !== 'finishing' : !state.thanks.enabled) return;
			const tip = read.data.tip;
			const thank = await this.#isRead(streamer, orderId, tip, true);
			// No decision stored yet (its own write settles after a store outage): asked again later.
			if (thank === null) throw new Error(`${orderId}: its moderation decision is not stored yet`);
			await this.#settleFinishing(streamer, orderId, thank ? tip : null);
		} catch (err) {
			logged(err);
			const again = (n: number) => void this.#afterFinish(streamer, orderId, answer, n, since);
			if (!this.#settleLater.again(since, attempt, again))
				console.error('[chat] a thanks was given up: the chat store did not take it in time');
		}
	}

	/**
	 * A tip's alert started (its claim answered 200): thanks owed for the ones before wait until it
	 * is read, to go with its thanks. Never throws.
	 */
	async alertStarted(streamer: string): Promise<void> {
		try {
			const owed = Object.values((await this.store.read(streamer)).entries).some(
				(e) => e.state === 'owed' && !e.tries
			);
			if (owed) await this.store.update(streamer, (s) => gather(s, Infinity));
		} catch (err) {
			logged(err);
		}
	}

	/** The dock's Send to chat: counted in the same budget, posted as written (dock-sends.ts). */
	send(streamer: string, up: UpstreamClient, message: string): Promise<ChatOutcome> {
		return sendFromDock(this.store, streamer, up, message, this.#now);
	}

	/** The dock's Send again of a thanks that may not have gone (dock-sends.ts). */
	resend(streamer: string, up: UpstreamClient, id: string): Promise<ChatOutcome | null> {
		return sendAgain(this.store, streamer, up, id, this.#now);
	}

	/** The dock's It went: a thanks that may not have gone, seen in chat (dock-sends.ts). */
	seen(streamer: string, id: string): Promise<boolean> {
		return seenByStreamer(this.store, streamer, id, this.#now);
	}

	/**
	 * Saves the settings. Thanks switched on with a credential that lacks `chat:write` (GET /me says
	 * its scopes) then show the problem, before the first tip: checked after the answer, so that a
	 * slow read never holds the Save.
	 */
	async saveSettings(streamer: string, thanks: ThanksSettings, up?: UpstreamClient): Promise<void> {
		await this.store.update(streamer, (s, tell) => {
			s.thanks = thanks;
			tell();
		});
		this.wake(streamer);
		if (thanks.enabled && up) void this.#checkScope(streamer, up);
	}

	async #checkScope(streamer: string, up: UpstreamClient): Promise<void> {
		const scopes = await this.#tenant.scopes(up);
		if (scopes === null) return;
		const scope = ROUTES.chatSend.scope;
		const at = new Date(this.#now()).toISOString();
		await this.store
			.update(streamer, (s, tell) => {
				if (!scopes.includes(scope)) {
					if (s.problem?.code === 'missing_scope') return;
					s.problem = {
						code: 'missing_scope',
						error: `the connection lacks the scope ${scope}`,
						required_scope: scope,
						at
					};
				} else if (s.problem?.code === 'missing_scope') s.problem = null;
				else return;
				tell();
			})
			.catch(logged);
	}

	close(): void {
		this.#closed = true;
		this.#settleLater.close();
		if (this.#sweep) clearInterval(this.#sweep);
		for (const { timer } of this.#timers.values()) clearTimeout(timer);
		this.#timers.clear();
	}

	/** Looks at the streamer's entries now (one run at a time per streamer in this process). */
	wake(streamer: string): void {
		if (this.#closed) return;
		let run = this.#runs.get(streamer);
		if (!run) this.#runs.set(streamer, (run = coalesced(() => this.#run(streamer))));
		run().catch((err: Error) => {
			console.error('[chat] thanks could not be sent:', err.message);
			this.#later(streamer, this.#now() + STREAMER_RETRY_MS);
		});
	}

	async #run(streamer: string): Promise<void> {
		if (this.#closed) return;
		const now = this.#now();
		const state = await this.store.read(streamer);
		await this.#settleStale(streamer, state, now);
		const taken = await this.store.update(streamer, (s, tell) =>
			takeDue(s, now, tell, randomUUID())
		);
		if (Array.isArray(taken) && taken.length > 0) await this.#thank(streamer, taken);
		const after = await this.store.read(streamer);
		const wake = Math.max(nextWake(after) ?? Infinity, typeof taken === 'number' ? taken : 0);
		if (Number.isFinite(wake)) this.#later(streamer, wake);
	}

	async #thank(streamer: string, taken: [string, Entry][]): Promise<void> {
		const tries = Math.max(...taken.map(([, e]) => e.tries ?? 0));
		const msg = taken[0][1].msg ?? '';
		const currency = await this.#tenant.currency(streamer, this.#o.upstreamOf(streamer));
		// The amount without its currency only when the tenant's stays out of reach (GET /me refused
		// twice, as under a spent rate limit): the thanks is tried again shortly first.
		if (!currency && tries < CURRENCY_TRIES) {
			const now = this.#now();
			await this.store.update(streamer, (s) => {
				// Nothing was posted: the budget's slot taken for it is given back.
				const slot = s.sends.lastIndexOf(s.entries[taken[0][0]]?.at ?? NaN);
				if (slot >= 0) s.sends.splice(slot, 1);
				for (const [id, e] of taken)
					if (s.entries[id]?.state === 'sending')
						s.entries[id] = { ...e, state: 'owed', at: now, tries: tries + 1, due: now + 2000 };
			});
			return;
		}
		const state = await this.store.read(streamer);
		const text = thanksText(state.thanks, taken, currency);
		const outcome = await postChat(this.#o.upstreamOf(streamer), text, tries);
		const at = this.#now();
		await this.store.update(streamer, (s, tell) => {
			settlePost(s, msg, text, outcome, at);
			tell();
		});
		const tips = taken.map(([orderId, e]) => ({ orderId, name: e.name ?? 'someone' }));
		if (outcome.ok) this.#o.posted?.(streamer, { msg, text, at, tips });
	}

	/**
	 * Entries left by a sender that stopped: a finish whose answer never came is settled from the
	 * played history (thanked if the tip is there), a message whose post never answered is unsure
	 * (it may have gone out: the kit never posts it twice, the streamer decides in the dock).
	 */
	async #settleStale(streamer: string, s: ChatState, now: number): Promise<void> {
		// Single mode: what was under way when this process started was left by one that stopped.
		const cut = this.#o.soleWriter ? Math.max(this.#startedAt, now - STALE_MS) : now - STALE_MS;
		const stale = (state: Entry['state']) =>
			Object.entries(s.entries)
				.filter(([, e]) => e.state === state && e.at < cut)
				.map(([id]) => id);
		const sending = stale('sending');
		if (sending.length > 0) {
			const currency = await this.#tenant.currency(streamer, this.#o.upstreamOf(streamer));
			await this.store.update(streamer, (st, tell) => {
				const left = sending
					.filter((id) => st.entries[id]?.state === 'sending' && st.entries[id].at < cut)
					.map((id): [string, Entry] => [id, st.entries[id]]);
				// By message: the entries thanked together are one unsure message.
				const messages = new Map<string, [string, Entry][]>();
				for (const [id, e] of left)
					messages.set(messageOf(e), [...(messages.get(messageOf(e)) ?? []), [id, e]]);
				for (const [msg, entries] of messages) {
					const named = entries.map(([id, e]): [string, Entry] => [id, { ...e, msg }]);
					leftUnsure(st, named, thanksText(st.thanks, named, currency), now);
				}
				if (left.length > 0) tell();
			});
		}
		const finishing = stale('finishing');
		if (finishing.length === 0) return;
		const history = await ask(this.#o.upstreamOf(streamer), ROUTES.ttsHistory, {
			query: '?limit=100'
		});
		for (const id of finishing) {
			const tip = history.tips.find((t) => t.order_id === id);
			const thank = tip !== undefined && (await this.#isRead(streamer, id, tip));
			await this.#settleFinishing(streamer, id, thank ? tip : null);
		}
	}

	async #settleFinishing(streamer: string, orderId: string, tip: ReadTip | null): Promise<void> {
		const now = this.#now();
		await this.store.update(
			streamer,
			(s, tell) => {
				const e = s.entries[orderId];
				// No entry: its note was not stored before the finish (the store was away).
				if (e ? e.state !== 'finishing' : !s.thanks.enabled) return;
				if (!tip) {
					s.entries[orderId] = { state: 'done', at: now };
					return;
				}
				s.entries[orderId] = {
					state: 'owed',
					at: now,
					readAt: now,
					name: tip.name,
					amount: tip.amount
				};
				// The thanks owed before it go with its own.
				gather(s, now + GATHER_MS);
				tell();
			},
			[orderId]
		);
		if (tip) this.wake(streamer);
	}

	/**
	 * A tip with an amount, not a replay (its tipper was thanked the first time) nor a sub reward,
	 * that moderation decided `read` (or a person approved).
	 */
	/** Whether the tip is thanked; `pending`: null while its decision is not stored yet. */
	async #isRead(streamer: string, orderId: string, tip: ReadTip, pending = false) {
		if (tip.is_replay || tip.is_sub_reward || tip.amount === null || !(tip.amount > 0))
			return false;
		const decision = (await this.#o.moderation.get(streamer, [orderId])).get(orderId);
		return decision === undefined && pending ? null : decision?.outcome === 'read';
	}

	#later(streamer: string, at: number): void {
		if (this.#closed) return;
		const had = this.#timers.get(streamer);
		if (had && had.at <= at) return;
		if (had) clearTimeout(had.timer);
		const timer = setTimeout(
			() => {
				this.#timers.delete(streamer);
				this.wake(streamer);
			},
			Math.max(0, at - this.#now())
		);
		timer.unref?.();
		this.#timers.set(streamer, { at, timer });
	}
}
