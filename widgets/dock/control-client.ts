// The dock's calls (docs/dock.md), through the one /control client (src/client/control.ts): the
// realtime handoff token (POST /control/token), the dock's reads (GET /control/api/<path>, typed by
// the /api contract), its actions, moderation's Approve, Reject, Reveal and rules, and a new
// control key; each answer in the shape the dock's state takes.
import type { ApiFailure, FetchLike, TokenResult } from '../../src/client/api.ts';
import {
	ControlApi,
	errorText,
	type ControlCredential,
	type SendResult
} from '../../src/client/control.ts';
import * as control from '../../src/contract/control.ts';
import type { ActionName } from '../../src/contract/control.ts';
import type { ChatStatus, ThanksSettings } from '../../src/contract/chat.ts';
import type { ModerationRules, StoredRules } from '../../src/contract/moderation.ts';
import * as routes from '../../src/contract/routes.ts';
import { HISTORY_LIMIT, type Snapshot, type SnapshotBody } from './dock-model.ts';

export type DockCredential = ControlCredential;

export type ReadResult = { ok: true; read: SnapshotBody } | ApiFailure;
export type RulesResult = { ok: true; stored: StoredRules } | ApiFailure;
export type ChatResult = { ok: true; status: ChatStatus } | ApiFailure;
export type MessageResult = { ok: true; message: string | null } | ApiFailure;
/** A show control's answer: the route's, checked (a counter, a tip goal, an action's outcome). */
export type ShowRoute =
	| typeof control.counterNew
	| typeof control.counterAdd
	| typeof control.counterSet
	| typeof control.counterDelete
	| typeof control.tipGoal
	| typeof control.celebrate;

export class ControlClient {
	readonly #control: ControlApi;

	constructor(credential: DockCredential, fetch?: FetchLike) {
		this.#control = new ControlApi(credential, fetch);
	}

	/** The exchange (the push channel and the key's retry use it). */
	get api() {
		return this.#control.api;
	}

	/** The /control client itself, for a section that brings its own calls (activity-client.ts). */
	get control(): ControlApi {
		return this.#control;
	}

	/** Called when a call is refused for the dock's credential (401): nothing else will work. */
	get onRefused(): ((why: string) => void) | null {
		return this.#control.onRefused;
	}
	set onRefused(listener: ((why: string) => void) | null) {
		this.#control.onRefused = listener;
	}

	/** POST /control/token; a refused credential stops the realtime connection (no retry helps). */
	readonly mintToken = async (): Promise<TokenResult> => {
		const res = await this.api.mintToken();
		if (res.ok) return res;
		if (res.kind === 'unauthorized') {
			this.onRefused?.(res.error);
			return res;
		}
		const why = this.#control.reportRefused(res);
		return why === null ? res : { ok: false, kind: 'unauthorized', status: 401, error: why };
	};

	/** One snapshot through GET /control/api/<path>. */
	async read(snapshot: Snapshot): Promise<ReadResult> {
		const query = { query: { limit: HISTORY_LIMIT } };
		const res = await this.#request(snapshot, query);
		if (!res.ok) this.#control.reportRefused(res);
		return res;
	}

	async #request(snapshot: Snapshot, query: { query: { limit: number } }): Promise<ReadResult> {
		const api = this.api;
		switch (snapshot) {
			case 'tts': {
				const r = await api.request(routes.ttsQueue);
				return r.ok ? { ok: true, read: { snapshot, body: r.body } } : r;
			}
			case 'media': {
				const r = await api.request(routes.mediaQueue);
				return r.ok ? { ok: true, read: { snapshot, body: r.body } } : r;
			}
			case 'ttsHistory': {
				const r = await api.request(routes.ttsHistory, {}, query);
				return r.ok ? { ok: true, read: { snapshot, body: r.body } } : r;
			}
			case 'mediaHistory': {
				const r = await api.request(routes.mediaHistory, {}, query);
				return r.ok ? { ok: true, read: { snapshot, body: r.body } } : r;
			}
			case 'tipping': {
				// The overlay key's /api does not forward /tipping (its route is not `proxied`); the
				// control routes do, so the dock sends it itself and checks the body the same way.
				const r = await api.send('tipping', 'GET', '/api/tipping');
				if (!r.ok) return r;
				const body = routes.tipping.response.safeParse(r.body);
				if (body.success) return { ok: true, read: { snapshot, body: body.data } };
				return { ok: false, kind: 'malformed', status: r.status, error: 'tipping', body: r.body };
			}
		}
	}

	/** POST /control/actions/:action, with `{ order_id }` for the actions on one order. */
	act(action: ActionName, orderId?: string): Promise<SendResult> {
		const body = orderId === undefined ? {} : { order_id: orderId };
		return this.#control.send(control.action, { params: { action }, body });
	}

	/** The counters, the overlays and an overlay's tip goal (GET /control/api/...). */
	readCounters() {
		return this.api.request(routes.countersList);
	}
	readOverlays() {
		return this.api.request(routes.overlaysList);
	}
	readGoal(overlayId: string) {
		return this.api.request(routes.tipGoalRead, { overlayId });
	}

	/** One of the show's controls (counters, a tip goal, the celebration), its answer checked. */
	show<R extends ShowRoute>(route: R, params: Record<string, string>, body?: unknown) {
		return this.#control.call(route, { params, body });
	}

	/** GET /control/moderation: the streamer's rules and their version. */
	async rules(): Promise<RulesResult> {
		const res = await this.#control.call(control.rules);
		return res.ok ? { ok: true, stored: res.body } : res;
	}

	/** PUT /control/moderation: saved, with the new version; 400 `bad_rules` names the field. */
	async saveRules(rules: ModerationRules): Promise<RulesResult> {
		const res = await this.#control.call(control.saveRules, { body: rules });
		return res.ok ? { ok: true, stored: res.body } : res;
	}

	/**
	 * POST /control/moderation/approve or /reject a held tip, or a held video (`queue` media: a
	 * video has its tip's order id, so the queue tells them apart): `{ outcome, decision }`.
	 */
	settle(
		verdict: 'approve' | 'reject',
		orderId: string,
		queue: 'tts' | 'media' = 'tts'
	): Promise<SendResult> {
		const body = queue === 'media' ? { order_id: orderId, queue } : { order_id: orderId };
		return this.#control.send(verdict === 'approve' ? control.approve : control.reject, { body });
	}

	/** GET /control/moderation/message: a held tip's message as the viewer wrote it (Reveal). */
	async message(orderId: string): Promise<MessageResult> {
		const res = await this.#control.call(control.message, { query: { order_id: orderId } });
		return res.ok ? { ok: true, message: res.body.message } : res;
	}

	/**
	 * GET /control/chat, or with `save` PUT /control/chat/thanks (400 `bad_template` names the
	 * field): the thanks settings, the tips waiting, the problem, the last messages.
	 */
	async chat(save?: ThanksSettings): Promise<ChatResult> {
		const res = save
			? await this.#control.call(control.saveThanks, { body: save })
			: await this.#control.call(control.chat);
		return res.ok ? { ok: true, status: res.body } : res;
	}

	/** POST /control/chat/send: the dock's own message, posted as written. */
	sendChat(message: string): Promise<SendResult> {
		return this.#control.send(control.sendChat, { body: { message } });
	}

	/** POST /control/chat/resend: Send again of a thanks that may not have gone (its id). */
	resendChat(id: string): Promise<SendResult> {
		return this.#control.send(control.resendChat, { body: { id } });
	}

	/** POST /control/chat/dismiss: It went, a thanks that may not have gone seen in chat (its id). */
	dismissChat(id: string): Promise<SendResult> {
		return this.#control.send(control.dismissChat, { body: { id } });
	}

	/** POST /control/new-key (single mode): the new key; the old one has stopped. */
	async newKey(): Promise<{ ok: true; key: string } | { ok: false; error: string }> {
		const res = await this.#control.call(control.newKey);
		if (res.ok) return { ok: true, key: res.body.key };
		if (res.kind === 'malformed')
			return { ok: false, error: 'the server answered without a new key' };
		return { ok: false, error: errorText(res) };
	}
}
