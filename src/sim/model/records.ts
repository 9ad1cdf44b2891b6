// Records the simulator derives from its state, as pure functions: a queued video from a request,
// and the supporters' leaderboard from the tip ledger.
import type { QueueMediaItem, QueueTip } from '../../contract/index.ts';
import { badRequest } from '../errors.ts';

/** A video requested with a tip, by the streamer or by the demo traffic. */
export interface MediaInput {
	url: string;
	start_time?: number;
	title?: string | null;
	thumbnail?: string | null;
	duration?: number;
	requested_via?: string;
}

/** A queued video from a request; 400 unless its URL is an absolute http(s) URL. */
export function mediaItem(
	input: MediaInput,
	o: { orderId: string; donorName: string; requestedVia: string; queuedAt: string }
): QueueMediaItem {
	let url: URL;
	try {
		url = new URL(input.url);
	} catch {
		throw badRequest('url: expected an absolute http(s) URL');
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		throw badRequest('url: expected an absolute http(s) URL');
	return {
		order_id: o.orderId,
		donor_name: o.donorName,
		media_url: url.toString(),
		media_start_time: Math.max(0, Math.floor(input.start_time ?? 0)),
		video_title: input.title ?? null,
		video_thumbnail: input.thumbnail ?? null,
		video_duration: Math.max(0, Math.round(input.duration ?? 0)),
		platform: videoPlatform(url),
		requested_via: o.requestedVia,
		is_replay: false,
		queued_at: o.queuedAt
	};
}

function videoPlatform(url: URL): string {
	const host = url.hostname.replace(/^www\.|^m\./, '');
	if (host === 'youtube.com' || host === 'youtu.be' || host === 'youtube-nocookie.com')
		return 'youtube';
	if (host.endsWith('twitch.tv')) return 'twitch';
	if (host.endsWith('kick.com')) return 'kick';
	if (host === 'tiktok.com') return 'tiktok';
	if (/\.(webm|mp4|m4v|ogv|mov)$/i.test(url.pathname)) return 'direct';
	return 'other';
}

/** Supporters by paid total: signed-in donors by platform id, others by name. */
export function leaderboardOf(ledger: readonly QueueTip[], limit: number) {
	const rows = new Map<
		string,
		{
			name: string;
			platform: QueueTip['platform'];
			platform_user_id: string | null;
			total: number;
			tips: number;
		}
	>();
	for (const tip of ledger) {
		if (!tip.is_paid || tip.amount === null) continue;
		const key = tip.platform ? `${tip.platform}:${tip.platform_user_id}` : `name:${tip.name}`;
		const row = rows.get(key) ?? {
			name: tip.name,
			platform: tip.platform,
			platform_user_id: tip.platform_user_id,
			total: 0,
			tips: 0
		};
		row.total = Math.round((row.total + tip.amount) * 100) / 100;
		row.tips += 1;
		row.name = tip.name;
		rows.set(key, row);
	}
	return [...rows.values()].sort((a, b) => b.total - a.total).slice(0, limit);
}
