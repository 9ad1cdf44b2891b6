// Times as the dock shows them: a clock time for when something started or played, and the
// seconds since a moment (read once, when a bar is drawn). A video's length is media-source.ts's.

/** `20:14:05` in the browser's locale; '' for a date it cannot read. */
export function clockTime(iso: string): string {
	const t = Date.parse(iso);
	return Number.isFinite(t) ? new Date(t).toLocaleTimeString() : '';
}

/** Seconds from `iso` to `now` (never negative: the server's clock may be ahead of ours). */
export function secondsSince(iso: string, now = Date.now()): number {
	const t = Date.parse(iso);
	return Number.isFinite(t) ? Math.max(0, (now - t) / 1000) : 0;
}

/** A clock time today (`20:14`), else with its day (`Nov 30, 20:14`); '' for a date it cannot read. */
export function dayTime(iso: string, now = new Date()): string {
	const d = new Date(iso);
	if (!Number.isFinite(d.getTime())) return '';
	const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
	if (d.toDateString() === now.toDateString()) return d.toLocaleTimeString([], time);
	return d.toLocaleString([], { month: 'short', day: 'numeric', ...time });
}
