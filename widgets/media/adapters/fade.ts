// Ducking (`with_tts=duck`) fades the video's volume down while a tip is read and back up after,
// the way howler fades an html5 Howl (Howl.fade: linear volume steps on a timer, only while the
// fade lasts). Howler cannot do it itself: the ducked sound is a <video> element or YouTube's
// iframe player, often in another OBS source than the TTS page, and a Howl only fades the
// <audio> element it created. So the same ramp, kept here; nothing runs between fades.
import type { MediaSession } from './types.ts';

/** How long a duck (or its release) takes: short enough not to cover the first word. */
export const DUCK_FADE_MS = 300;
/** At most one volume change per this long (YouTube's volume goes through postMessage). */
const STEP_MS = 25;

/** `session` whose setVolume() fades from the volume it plays at to the new one. */
export function withVolumeFade(
	session: MediaSession,
	volume: number,
	fadeMs = DUCK_FADE_MS
): MediaSession {
	let current = volume;
	let timer: ReturnType<typeof setTimeout> | null = null;
	const cancel = () => {
		if (timer) clearTimeout(timer);
		timer = null;
	};
	return {
		done: session.done,
		pause: () => session.pause(),
		resume: () => session.resume(),
		setVolume(target) {
			cancel();
			const from = current;
			const steps = Math.max(1, Math.round(fadeMs / STEP_MS));
			let step = 0;
			const next = () => {
				step++;
				current = step >= steps ? target : from + ((target - from) * step) / steps;
				session.setVolume(current);
				timer = step >= steps ? null : setTimeout(next, STEP_MS);
			};
			if (from === target) session.setVolume(target);
			else next();
		},
		destroy() {
			cancel();
			session.destroy();
		}
	};
}
