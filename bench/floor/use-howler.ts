// howler as the TTS player uses it: one html5 sound (streamed, no CORS), not loaded here. Creating
// it sets up howler's global and its AudioContext, as on our pages.
import { Howl } from 'howler';

export function use(): string {
	return new Howl({ src: ['./silence.mp3'], html5: true, preload: false, volume: 0.5 }).state();
}
