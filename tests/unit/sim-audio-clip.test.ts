// The simulator's short clips for benches (SimOptions.audioClipMs): every tip's audio is a tone of
// exactly the asked length, whatever its message.
import { describe, expect, it } from 'vitest';
import { AudioStore } from '../../src/sim/audio-store.ts';
import { renderClip, wavDurationSeconds } from '../../src/sim/audio.ts';

describe('audio clips of a fixed length', () => {
	it('renders a WAV as long as asked, never shorter than 10 ms', () => {
		expect(wavDurationSeconds(renderClip(20))).toBeCloseTo(0.02, 3);
		expect(wavDurationSeconds(renderClip(300))).toBeCloseTo(0.3, 3);
		expect(wavDurationSeconds(renderClip(0))).toBeCloseTo(0.01, 3);
	});

	it('a store with a clip length gives every tip that clip instead of its message', async () => {
		const store = new AudioStore(64, 50);
		const long = await store.render('tip_1', 'A long message that would take seconds to speak.');
		expect(wavDurationSeconds(long)).toBeCloseTo(0.05, 3);
		expect(wavDurationSeconds((await store.get('tip_1'))!)).toBeCloseTo(0.05, 3);
	});
});
