// The upstream's tips and videos as moderation reads them, through one reader: a list from a
// forwarded call (the TTS queue, its history, the media queue), each item checked against the
// fields a decision needs (contract/moderation.ts, DecidableTip and DecidableVideo). An upstream
// answer is not trusted: an item without them is left out (and logged), and an answer that is not
// a JSON object with the list is no answer (null).
import type { z } from 'zod/mini';
import {
	DecidableTip,
	DecidableVideo,
	type QueueMediaItem,
	type QueueTip
} from '../../contract/index.ts';
import { bodyBytes, type UpstreamClient } from '../upstream.ts';

/** Items the decisions can read: `T` is the contract's full type, of which the schema checks a part. */
export interface ItemReader<T> {
	is(v: unknown): v is T;
	/** The items of a list that a decision can read; the others are dropped and logged. */
	list(items: unknown[], where: string): T[];
}

/** A list read on every page's poll would repeat the warning: once a minute at most. */
const WARN_EVERY_MS = 60_000;

function reader<T>(schema: z.ZodMiniType, kind: string): ItemReader<T> {
	const is = (v: unknown): v is T => schema.safeParse(v).success;
	let warned = -Infinity;
	return {
		is,
		list(items, where) {
			const kept = items.filter(is);
			if (kept.length < items.length && Date.now() - warned >= WARN_EVERY_MS) {
				warned = Date.now();
				console.warn(
					`moderation: ${items.length - kept.length} ${kind}(s) of ${where} without the fields a decision needs were left out`
				);
			}
			return kept;
		}
	};
}

export const TIPS = reader<QueueTip>(DecidableTip, 'tip');
export const VIDEOS = reader<QueueMediaItem>(DecidableVideo, 'video');
export const isTip = TIPS.is;
export const isVideo = VIDEOS.is;

/** The items of `field` in the answer to GET `path` (a shared read), or null without one. */
export async function readItems<T>(
	upstream: UpstreamClient,
	path: string,
	field: string,
	items: ItemReader<T>
): Promise<T[] | null> {
	const res = await upstream.call('GET', path);
	if (!res.ok) {
		await res.body?.cancel().catch(() => {});
		return null;
	}
	try {
		const body = JSON.parse(new TextDecoder().decode(await bodyBytes(res))) as Record<
			string,
			unknown
		> | null;
		const list = body?.[field];
		return Array.isArray(list) ? items.list(list, `GET ${path}`) : null;
	} catch {
		return null;
	}
}
