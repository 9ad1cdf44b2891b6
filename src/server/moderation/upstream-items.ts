// The upstream's tips and videos as moderation reads them: a list from a forwarded call (the TTS
// queue, its history, the media queue), and the checks that an item has the fields a decision
// needs. An upstream answer is not trusted: anything else is left out, and an answer that is not
// a JSON object with the list is no answer (null).
import type { QueueMediaItem, QueueTip } from '../../contract/index.ts';
import { bodyBytes, type UpstreamClient } from '../upstream.ts';

export function isTip(v: unknown): v is QueueTip {
	const t = v as QueueTip | null;
	return (
		typeof t === 'object' &&
		t !== null &&
		typeof t.order_id === 'string' &&
		typeof t.name === 'string' &&
		(t.message === null || typeof t.message === 'string')
	);
}

export function isVideo(v: unknown): v is QueueMediaItem {
	const m = v as QueueMediaItem | null;
	return (
		typeof m === 'object' &&
		m !== null &&
		typeof m.order_id === 'string' &&
		typeof m.donor_name === 'string' &&
		typeof m.media_url === 'string' &&
		(m.video_title === null || m.video_title === undefined || typeof m.video_title === 'string')
	);
}

/** The items of `field` in the answer to GET `path` (a shared read), or null without one. */
export async function readItems<T>(
	upstream: UpstreamClient,
	path: string,
	field: string,
	is: (v: unknown) => v is T
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
		return Array.isArray(list) ? list.filter(is) : null;
	} catch {
		return null;
	}
}
