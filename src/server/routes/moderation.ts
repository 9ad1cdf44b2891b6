// /control/moderation: the streamer's rules (read, save), Approve and Reject of a held tip, and the
// whole message of a tip for the dock's Reveal. Behind the control credential (control.ts); the
// streamer comes from it, so one streamer never reads or settles another's.
import type { Context, Hono } from 'hono';
import { ModerationRules, OrderId, describeIssues, type QueueTip } from '../../contract/index.ts';
import { present, settled } from '../../core/moderation/decision.ts';
import { settledVideo, videoKey } from '../../core/moderation/video.ts';
import { HttpError } from '../http-error.ts';
import type { Moderator } from '../moderation/moderator.ts';
import type { UpstreamClient } from '../upstream.ts';
import { bodyBytes } from '../upstream.ts';
import { jsonBody, RULES_MAX_BODY } from './guards.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

type Access = (c: Context) => { streamer: string; upstream: UpstreamClient };

export function moderationRoutes(control: Hono, moderator: Moderator, accessOf: Access) {
	const { store } = moderator;

	control.get('/moderation', async (c) =>
		c.json(await store.rules(accessOf(c).streamer), 200, NO_STORE)
	);

	control.put('/moderation', async (c) => {
		const parsed = ModerationRules.safeParse(await jsonBody(c, RULES_MAX_BODY));
		if (!parsed.success) throw new HttpError(400, 'bad_rules', describeIssues(parsed.error));
		return c.json(await store.saveRules(accessOf(c).streamer, parsed.data), 200, NO_STORE);
	});

	// A tip's (`queue` absent or `tts`) or a video's (`queue: "media"`); settling a tip settles
	// the video held only with it (videos.ts).
	for (const how of ['approve', 'reject'] as const)
		control.post(`/moderation/${how}`, async (c) => {
			const { orderId, queue } = settleBody(await jsonBody(c));
			const { streamer, upstream } = accessOf(c);
			const held = await moderator.decisionOf(streamer, upstream, queue, orderId);
			if (!held) throw new HttpError(404, 'not_decided', `no decision for this ${NOUN[queue]}`);
			const key = held.orderId;
			const { rules } = await store.rules(streamer);
			const to = queue === 'media' ? settledVideo(held, how) : settled(held, how, rules.onReject);
			const done = await store.settle(streamer, key, to);
			const now = done ?? (await store.get(streamer, [key])).get(key) ?? held;
			if (now.outcome === 'remove') moderator.removeLater(upstream, streamer, orderId, queue);
			if (done && queue === 'tts') await settleItsVideo(streamer, upstream, orderId, how);
			return c.json(
				{ outcome: done ? 'done' : 'already', decision: decisionOnly(now) },
				200,
				NO_STORE
			);
		});

	/** The tip's video, held only because the tip was, follows the tip's Approve or Reject. */
	async function settleItsVideo(
		streamer: string,
		upstream: UpstreamClient,
		orderId: string,
		how: 'approve' | 'reject'
	): Promise<void> {
		const key = videoKey(orderId);
		const video = (await store.get(streamer, [key])).get(key);
		if (video?.outcome !== 'hold' || video.rule?.kind !== 'tip') return;
		const done = await store.settle(streamer, key, settledVideo(video, how));
		if (done?.outcome === 'remove') moderator.removeLater(upstream, streamer, orderId, 'media');
	}

	control.get('/moderation/message', async (c) => {
		const orderId = orderIdOf({ order_id: c.req.query('order_id') });
		const tip = await findTip(accessOf(c).upstream, orderId);
		if (!tip) throw new HttpError(404, 'not_found', 'this tip is not in the queue or the history');
		return c.json({ message: tip.message }, 200, NO_STORE);
	});
}

/** The decision as the dock shows it (present's `moderation`, with no tip around it). */
function decisionOnly(d: Parameters<typeof present>[1]) {
	const blank = { order_id: '', name: '', amount: null, message: null, tts_url: null } as QueueTip;
	return present(blank, d, 'dock').moderation;
}

const NOUN = { tts: 'tip', media: 'video' } as const;

function settleBody(body: unknown): { orderId: string; queue: 'tts' | 'media' } {
	const queue = (body as { queue?: unknown } | null)?.queue ?? 'tts';
	if (queue !== 'tts' && queue !== 'media')
		throw new HttpError(400, 'bad_request', 'queue: expected "tts" or "media"');
	return { orderId: orderIdOf(body), queue };
}

function orderIdOf(body: unknown): string {
	const id = OrderId.safeParse((body as { order_id?: unknown } | null)?.order_id);
	if (!id.success)
		throw new HttpError(400, 'bad_request', 'expected a JSON body { "order_id": "<order id>" }');
	return id.data;
}

/** The tip from the queue, else from the last page of played history. */
async function findTip(upstream: UpstreamClient, orderId: string): Promise<QueueTip | null> {
	for (const [path, field] of [
		['/tts/queue', 'items'],
		['/tts/history?limit=100', 'tips']
	] as const) {
		const res = await upstream.call('GET', path);
		if (!res.ok) continue;
		const body = parsed(await bodyBytes(res));
		const list = body && Array.isArray(body[field]) ? (body[field] as QueueTip[]) : [];
		const tip = list.find((t) => t?.order_id === orderId);
		if (tip) return tip;
	}
	return null;
}

/** An answer's JSON object; null for anything else (an upstream answer is not trusted). */
function parsed(bytes: Uint8Array): Record<string, unknown> | null {
	try {
		const json: unknown = JSON.parse(new TextDecoder().decode(bytes));
		return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}
