// What the editor's inputs need of a value beyond its text: the colour picker's #rrggbb for a
// colour the URL writes (hex with or without `#`, or a CSS name, which the browser resolves), the
// switch's state, whether an image URL can be shown, and the sound a play button plays (howler,
// the stack's audio library; the shipped sounds are public/sounds/).
import { Howl } from 'howler';
import { formatOf } from '../../src/client/howler-playback.ts';
import { SOUND_NAMES, soundUrl } from '../tts/tiers.ts';

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** A hex colour as the picker's #rrggbb (alpha dropped, #rgb widened); null if not hex. */
export function hexOfHex(value: string): string | null {
	const m = HEX.exec(value.trim());
	if (!m) return null;
	let hex = m[1].toLowerCase();
	if (hex.length <= 4) hex = [...hex.slice(0, 3)].map((c) => c + c).join('');
	return `#${hex.slice(0, 6)}`;
}

let canvas: CanvasRenderingContext2D | null | undefined;

/** Any colour the URL may write as #rrggbb (a CSS name through a canvas), or null. */
export function pickerHex(value: string): string | null {
	const hex = hexOfHex(value);
	if (hex || typeof document === 'undefined' || !/^[a-z]+$/i.test(value.trim())) return hex;
	canvas ??= document.createElement('canvas').getContext('2d');
	if (!canvas) return null;
	canvas.fillStyle = '#010203';
	canvas.fillStyle = value.trim();
	const out = String(canvas.fillStyle);
	return out === '#010203' && value.trim().toLowerCase() !== '#010203' ? null : hexOfHex(out);
}

const TRUE_WORDS = ['1', 'true', 'on', 'yes'];

/** A switch's text as on/off; null for an empty (unset) or unreadable one. */
export function switchState(value: string): boolean | null {
	const v = value.trim().toLowerCase();
	if (v === '') return null;
	if (TRUE_WORDS.includes(v)) return true;
	return ['0', 'false', 'off', 'no'].includes(v) ? false : null;
}

/** An image URL the editor may show as a thumbnail (http(s) only; `none` and junk are not). */
export const showableImage = (value: string): boolean => /^https?:\/\/\S+$/i.test(value.trim());

let playing: Howl | null = null;

/** Where a sound field's value plays from: a shipped sound, a URL; null for none or empty. */
export function soundSource(value: string): string | null {
	const v = value.trim();
	const word = v.toLowerCase();
	return soundUrl((SOUND_NAMES as readonly string[]).includes(word) ? word : v || 'none');
}

/**
 * Plays a sound field's value here (the click is the gesture the browser wants). Answers why not
 * when there is nothing to play; `onFailed` hears a load or a play that fails.
 */
export function playSound(value: string, onFailed: (why: string) => void): string | null {
	playing?.unload();
	playing = null;
	const url = soundSource(value);
	if (!url) return 'no sound is set';
	playing = new Howl({
		src: [url],
		html5: true,
		format: [formatOf(url)],
		volume: 0.8,
		onloaderror: () => onFailed(`${value.trim()} could not be loaded`),
		onplayerror: () => onFailed('the browser did not play it')
	});
	playing.play();
	return null;
}
