// Times as the dock shows them: a clock time for when something started or played, a length in
// minutes and seconds, and the seconds since a moment (read once, when a bar is drawn).

/** `20:14:05` in the browser's locale; '' for a date it cannot read. */
export function clockTime(iso: string): string {
	const t = Date.parse(iso);
	return Number.isFinite(t) ? new Date(t).toLocaleTimeString() : '';
}

/** `4:05`, `1:02:03`. */
export function length(seconds: number): string {
	const s = Math.max(0, Math.round(seconds));
	const mm = Math.floor((s % 3600) / 60);
	const ss = String(s % 60).padStart(2, '0');
	if (s < 3600) return `${mm}:${ss}`;
	return `${Math.floor(s / 3600)}:${String(mm).padStart(2, '0')}:${ss}`;
}

/** Seconds from `iso` to `now` (never negative: the server's clock may be ahead of ours). */
export function secondsSince(iso: string, now = Date.now()): number {
	const t = Date.parse(iso);
	return Number.isFinite(t) ? Math.max(0, (now - t) / 1000) : 0;
}
