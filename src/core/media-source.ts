// What the media player can do with a queued video, decided from its URL alone (pure, no DOM).
//
// The upstream's `platform` field is a free label (docs/upstream.md, QueueMediaItem: "video
// platform label"), so the URL decides: a YouTube address plays through the IFrame Player API, a
// direct video file through an HTML5 <video>, anything else is unsupported and released with a
// reason (never played, never left blocking the queue).

export type MediaSource =
	| { kind: 'file'; url: string }
	| { kind: 'youtube'; videoId: string }
	| { kind: 'unsupported'; reason: string };

/** File endings an HTML5 <video> in Chromium plays (the codecs inside must be supported too). */
const FILE_EXTENSIONS = /\.(webm|mp4|m4v|ogv|ogg|mov)$/i;
/** Labels some upstreams give direct files. */
const FILE_LABELS = new Set(['direct', 'file', 'video', 'html5', 'mp4', 'webm']);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set([
	'youtube.com',
	'm.youtube.com',
	'music.youtube.com',
	'youtube-nocookie.com',
	'youtu.be'
]);

/** Platforms people request that this player cannot embed, by host, for a readable reason. */
const KNOWN_UNSUPPORTED: readonly [RegExp, string][] = [
	[/(^|\.)twitch\.tv$/, 'Twitch'],
	[/(^|\.)kick\.com$/, 'Kick'],
	[/(^|\.)tiktok\.com$/, 'TikTok'],
	[/(^|\.)vimeo\.com$/, 'Vimeo'],
	[/(^|\.)(x|twitter)\.com$/, 'X'],
	[/(^|\.)instagram\.com$/, 'Instagram'],
	[/(^|\.)streamable\.com$/, 'Streamable']
];

export function classifyMedia(mediaUrl: string, platformLabel = ''): MediaSource {
	let url: URL;
	try {
		url = new URL(mediaUrl);
	} catch {
		return { kind: 'unsupported', reason: 'the video address is not a valid URL' };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return { kind: 'unsupported', reason: `${url.protocol} addresses cannot be played` };
	const host = url.hostname.toLowerCase().replace(/^www\./, '');
	if (YOUTUBE_HOSTS.has(host)) {
		const id = youtubeId(url, host);
		return id
			? { kind: 'youtube', videoId: id }
			: { kind: 'unsupported', reason: 'a YouTube address without a video id' };
	}
	if (FILE_EXTENSIONS.test(url.pathname) || FILE_LABELS.has(platformLabel.toLowerCase()))
		return { kind: 'file', url: url.toString() };
	const known = KNOWN_UNSUPPORTED.find(([re]) => re.test(host));
	return {
		kind: 'unsupported',
		reason: known
			? `${known[1]} videos cannot be played by this player (YouTube and video files can)`
			: `unsupported platform (${host}): only YouTube and direct video files can be played`
	};
}

function youtubeId(url: URL, host: string): string | null {
	const path = url.pathname.split('/').filter(Boolean);
	let id: string | null | undefined;
	if (host === 'youtu.be') id = path[0];
	else if (path[0] === 'watch') id = url.searchParams.get('v');
	else if (['embed', 'shorts', 'live', 'v', 'e'].includes(path[0] ?? '')) id = path[1];
	return id && YOUTUBE_ID.test(id) ? id : null;
}

/**
 * YouTube IFrame Player API `onError` codes as a sentence, and whether trying again can help.
 * https://developers.google.com/youtube/iframe_api_reference#onError (2, 5, 100, 101, 150) and
 * 153, which YouTube has sent since late 2025 to embeds whose request carries no referrer.
 */
export function youtubeError(code: number): { reason: string; permanent: boolean } {
	switch (code) {
		case 2:
			return { reason: 'YouTube error 2: the video id is invalid', permanent: true };
		case 5:
			return {
				reason: 'YouTube error 5: the HTML5 player could not play this video',
				permanent: false
			};
		case 100:
			return {
				reason: 'YouTube error 100: the video was removed or is private',
				permanent: true
			};
		case 101:
		case 150:
			return {
				reason: `YouTube error ${code}: the owner does not allow this video to be embedded`,
				permanent: true
			};
		case 153:
			return {
				reason:
					'YouTube error 153: YouTube refused the embed because the request carried no referrer (check that the page is served by the token endpoint)',
				permanent: true
			};
		default:
			return { reason: `YouTube error ${code}`, permanent: false };
	}
}

/**
 * How long another consumer may hold a claim on this video before it is taken to be dead (the
 * claim protocol's takeover): its remaining length plus the usual 90 s; 10 minutes plus 90 s when
 * the length is unknown (`video_duration` 0).
 */
export function mediaTakeoverMs(
	item: { video_duration: number; media_start_time: number } | undefined
): number {
	const base = 90_000;
	if (!item) return base;
	const remaining = item.video_duration > 0 ? item.video_duration - item.media_start_time : 600;
	return base + Math.max(0, remaining) * 1000;
}

/** `m:ss` (or `h:mm:ss`) for a position in seconds. */
export function clockTime(seconds: number): string {
	const s = Math.max(0, Math.floor(seconds));
	const h = Math.floor(s / 3600);
	const m = Math.floor((s % 3600) / 60);
	const ss = String(s % 60).padStart(2, '0');
	return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
