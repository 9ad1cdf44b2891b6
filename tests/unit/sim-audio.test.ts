import { describe, expect, it } from 'vitest';
import {
	guessVoice,
	readWavInfo,
	renderSpeech,
	renderTone,
	speechAvailable,
	wavDurationSeconds
} from '../../src/sim/audio.ts';

const ascii = (bytes: Uint8Array, from: number) =>
	String.fromCharCode(...bytes.subarray(from, from + 4));
const u32 = (bytes: Uint8Array, at: number) =>
	new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);

/** The sizes a player relies on: RIFF size = file - 8, data size = bytes after the header. */
function expectConsistentSizes(wav: Uint8Array) {
	const info = readWavInfo(wav);
	expect(u32(wav, 4)).toBe(wav.length - 8);
	expect(u32(wav, info.dataOffset - 4)).toBe(wav.length - info.dataOffset);
}

describe('tone fallback', () => {
	it('a longer message gives longer tone audio', () => {
		const short = wavDurationSeconds(renderTone('gg'));
		const long = wavDurationSeconds(
			renderTone('Thanks for the amazing stream tonight, keep it up!')
		);
		expect(long).toBeGreaterThan(short + 2);
	});

	it('writes a valid 44-byte 16-bit mono PCM header whose duration parses back', () => {
		const wav = renderTone('hello chat');
		expect(ascii(wav, 0)).toBe('RIFF');
		expect(ascii(wav, 8)).toBe('WAVE');
		expect(ascii(wav, 12)).toBe('fmt ');
		expect(ascii(wav, 36)).toBe('data');
		expect(readWavInfo(wav)).toEqual({
			sampleRate: 22_050,
			channels: 1,
			bitsPerSample: 16,
			dataOffset: 44,
			dataBytes: wav.length - 44
		});
		expectConsistentSizes(wav);
		// 0.6 s + 60 ms for each of the 10 characters
		expect(wavDurationSeconds(wav)).toBeCloseTo(1.2, 2);
	});

	it('is not silent, and stays soft', () => {
		const wav = renderTone('hello chat');
		const samples = new Int16Array(wav.slice(44).buffer);
		const peak = samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
		expect(peak).toBeGreaterThan(2_000);
		expect(peak).toBeLessThan(0.3 * 32767);
	});

	it('an empty or missing message gives a short chime', () => {
		for (const text of ['', '   ', null, undefined]) {
			const seconds = wavDurationSeconds(renderTone(text));
			expect(seconds).toBeGreaterThan(0.2);
			expect(seconds).toBeLessThan(1);
		}
	});

	it('very long text is capped near 12 seconds', () => {
		expect(wavDurationSeconds(renderTone('spam '.repeat(2_000)))).toBeCloseTo(12, 1);
	});

	it('counts emoji and RTL text by characters, not UTF-16 units', () => {
		// three emoji are six UTF-16 units but three characters
		expect(wavDurationSeconds(renderTone('🔥🔥🔥'))).toBeCloseTo(0.6 + 3 * 0.06, 2);
		expect(wavDurationSeconds(renderTone('שלום'))).toBeCloseTo(0.6 + 4 * 0.06, 2);
	});

	it('different messages of equal length sound different', () => {
		expect(renderTone('abcd')).not.toEqual(renderTone('wxyz'));
	});
});

describe('WAV parsing', () => {
	it('rejects bytes that are not a WAV file', () => {
		expect(() => wavDurationSeconds(new Uint8Array(0))).toThrow(/not a WAV/);
		expect(() => wavDurationSeconds(new TextEncoder().encode('ID3 this is an mp3 file'))).toThrow(
			/not a WAV/
		);
	});

	it("trusts the bytes present over a streamed header's placeholder size", () => {
		const wav = renderTone('hello');
		const streamed = wav.slice();
		const view = new DataView(streamed.buffer);
		view.setUint32(4, 0x7ffff024, true);
		view.setUint32(40, 0x7ffff000, true);
		expect(wavDurationSeconds(streamed)).toBe(wavDurationSeconds(wav));
	});

	it('skips chunks it does not know before the data', () => {
		const wav = renderTone('hi');
		const extra = new Uint8Array([...new TextEncoder().encode('LIST'), 3, 0, 0, 0, 1, 2, 3, 0]);
		const withList = new Uint8Array([...wav.subarray(0, 36), ...extra, ...wav.subarray(36)]);
		expect(wavDurationSeconds(withList)).toBe(wavDurationSeconds(wav));
	});
});

describe('renderSpeech', () => {
	it('always returns a playable WAV, with or without espeak-ng', async () => {
		const wav = await renderSpeech('Thanks for the stream!');
		expect(wavDurationSeconds(wav)).toBeGreaterThan(0.5);
		expectConsistentSizes(wav);
	});

	it('an empty message gives the chime', async () => {
		const chime = Buffer.from(renderTone(''));
		expect(chime.equals(await renderSpeech(''))).toBe(true);
		expect(chime.equals(await renderSpeech(null))).toBe(true);
	});

	it('picks a voice that can read the script of the message', () => {
		expect(guessVoice('Thanks for the stream')).toBe('en');
		expect(guessVoice('شكرا على البث الرائع')).toBe('ar');
		expect(guessVoice('שלום מישראל')).toBe('he');
		expect(guessVoice('配信ありがとう！')).toBe('ja');
		expect(guessVoice('谢谢你的直播')).toBe('cmn');
		expect(guessVoice('🔥🔥🔥')).toBe('en');
		expect(guessVoice('GG مرحبا everyone')).toBe('en');
	});
});

describe.skipIf(!speechAvailable())('renderSpeech with espeak-ng', () => {
	it('speaks a sentence as a valid WAV longer than half a second', async () => {
		const wav = await renderSpeech('Thanks for the amazing stream tonight, keep it up!');
		expect(ascii(wav, 0)).toBe('RIFF');
		expectConsistentSizes(wav);
		const seconds = wavDurationSeconds(wav);
		expect(seconds).toBeGreaterThan(0.5);
		// speech, not the tone: the tone for 50 characters would last exactly 3.6 s
		expect(seconds).not.toBeCloseTo(3.6, 2);
	});

	it('a message starting with dashes is spoken as text, not taken as options', async () => {
		const wav = await renderSpeech('-v xx --help me please');
		expect(wavDurationSeconds(wav)).toBeGreaterThan(0.5);
	});

	it('speaks Arabic, Hebrew, Japanese and emoji messages', async () => {
		for (const text of ['شكرا على البث الرائع', 'שלום מישראל', '配信ありがとう！', '🔥🔥🔥']) {
			expect(wavDurationSeconds(await renderSpeech(text))).toBeGreaterThan(0.3);
		}
	});

	it('an unknown or malformed voice still gives speech', async () => {
		for (const voice of ['xx', '--stdout; rm -rf /']) {
			const wav = await renderSpeech('hello everyone', { voice });
			expect(wavDurationSeconds(wav)).toBeGreaterThan(0.3);
		}
	});

	it('caps very long text so one tip cannot render for minutes', async () => {
		const wav = await renderSpeech('blah '.repeat(2_000));
		expect(wavDurationSeconds(wav)).toBeLessThan(90);
	});

	it('a burst of renders all complete', async () => {
		const wavs = await Promise.all(
			Array.from({ length: 12 }, (_, i) => renderSpeech(`message number ${i}`))
		);
		for (const wav of wavs) expect(wavDurationSeconds(wav)).toBeGreaterThan(0.5);
	});
});
