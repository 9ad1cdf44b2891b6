// Whether the page may start audio without a click, for the pages that do not load howler (the
// media player's gate, the preview); the TTS audio port asks howler's AudioContext instead.
//
// `navigator.userActivation.hasBeenActive` (Chrome 72) says whether the page had a gesture, but OBS
// allows autoplay without one (it starts CEF with `--autoplay-policy=no-user-gesture-required`),
// and Chrome also allows it for sites with a high media engagement. So the reliable test is to
// play a tiny silent WAV and see whether play() rejects with NotAllowedError. The data: URI needs
// `media-src data:` in the page's CSP (src/server/routes/pages.ts allows it).

// 10 ms of 8 kHz 8-bit silence: the smallest file every engine decodes.
const SILENT_WAV =
	'data:audio/wav;base64,UklGRnQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YVAAAACAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgA==';

/**
 * Whether the page may start audio now: true, false (NotAllowedError), or null when the probe
 * failed for another reason or took too long.
 */
export function probeAutoplay(timeoutMs = 3_000): Promise<boolean | null> {
	return new Promise((resolve) => {
		const audio = new Audio();
		const timer = setTimeout(() => resolve(null), timeoutMs);
		const finish = (result: boolean | null) => {
			clearTimeout(timer);
			audio.pause();
			audio.removeAttribute('src');
			audio.load(); // drops the decoder
			resolve(result);
		};
		audio.src = SILENT_WAV;
		try {
			audio.play().then(
				() => finish(true),
				(err: unknown) => finish((err as DOMException)?.name === 'NotAllowedError' ? false : null)
			);
		} catch {
			finish(null);
		}
	});
}
