// What a video's link says about it, for the video rules (video.ts): the channel it names, and
// whether it is a link the streamer blocked. Pure; nothing is fetched: the channel is the one the
// link names (a YouTube `@handle`, `/channel/…`, `/c/…` or `/user/…` link, a Twitch or Kick clip,
// a TikTok video), or the one a field of the upstream's item names.

/** Fields of a media item that may name its channel (not in the upstream's documented shape). */
const CHANNEL_FIELDS = ['video_channel', 'channel', 'channel_name', 'video_author', 'author'];

/** The host without `www.` or `m.`, lower case; null for a link that is not one. */
function parse(url: string): URL | null {
	try {
		return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
	} catch {
		return null;
	}
}

const bareHost = (u: URL) => u.hostname.toLowerCase().replace(/^(www|m|mobile)\./, '');

const segments = (u: URL) =>
	u.pathname
		.split('/')
		.filter(Boolean)
		.map((s) => decodeSafe(s));

function decodeSafe(s: string): string {
	try {
		return decodeURIComponent(s);
	} catch {
		return s;
	}
}

/** The channel a video's link or item names, as written there; null when neither does. */
export function channelOf(video: { media_url: string } & Record<string, unknown>): string | null {
	for (const f of CHANNEL_FIELDS) {
		const v = video[f];
		if (typeof v === 'string' && v.trim() !== '') return v.trim();
	}
	const u = parse(video.media_url);
	if (!u) return null;
	const host = bareHost(u);
	const [first, second] = segments(u);
	if (first === undefined) return null;
	if (host === 'youtube.com') {
		if (first.startsWith('@')) return first;
		if (['channel', 'c', 'user'].includes(first) && second) return second;
		return null;
	}
	if (host === 'tiktok.com') return first.startsWith('@') ? first : null;
	// twitch.tv/<channel>/clip/<id>, twitch.tv/<channel>/v/<id>, kick.com/<channel>/clips/<id>
	if (host === 'twitch.tv' || host === 'kick.com')
		return ['videos', 'clip', 'clips'].includes(first) ? null : first;
	return null;
}

/** A YouTube video's id (11 characters), from any of its link forms; null for any other link. */
function youtubeId(u: URL): string | null {
	const host = bareHost(u);
	const [first, second] = segments(u);
	let id: string | null | undefined = null;
	if (host === 'youtu.be') id = first;
	else if (
		host === 'youtube.com' ||
		host === 'youtube-nocookie.com' ||
		host === 'music.youtube.com'
	)
		id =
			first === 'watch'
				? u.searchParams.get('v')
				: ['embed', 'shorts', 'live', 'v'].includes(first ?? '')
					? second
					: null;
	return id && /^[A-Za-z0-9_-]{11}$/.test(id) ? id : null;
}

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The video's link is the blocked one: the same site or one under it (`example.com` blocks
 * `clips.example.com/…`), the same link or one under it (`youtube.com/@name` blocks its videos'
 * links that name it), or the same YouTube video (an id, or any link form of it).
 */
export function linkMatches(mediaUrl: string, rule: string): boolean {
	const video = parse(mediaUrl);
	if (!video) return false;
	const text = rule.trim();
	const id = youtubeId(video);
	if (VIDEO_ID.test(text) && !text.includes('.')) return id === text;
	const blocked = parse(text);
	if (!blocked) return false;
	const ruleId = youtubeId(blocked);
	if (ruleId !== null) return ruleId === id;
	const host = bareHost(video);
	const ruleHost = bareHost(blocked);
	if (host !== ruleHost && !host.endsWith(`.${ruleHost}`)) return false;
	const path = blocked.pathname.replace(/\/+$/, '').toLowerCase();
	if (path === '') return true;
	const videoPath = video.pathname.toLowerCase();
	return videoPath === path || videoPath.startsWith(`${path}/`);
}
