/**
 * The Chrome major version in a user agent string, or null when there is none. OBS browser sources
 * report `Chrome/103.…` (OBS 30) or `Chrome/127.…` (OBS 31/32); headless builds say `HeadlessChrome`.
 */
export function chromeMajor(userAgent: string): number | null {
	const match = /(?:Headless)?Chrome\/(\d+)\./.exec(userAgent);
	return match ? Number(match[1]) : null;
}
