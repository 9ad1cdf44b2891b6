import { spawn, spawnSync } from 'node:child_process';

/**
 * The simulator's TTS rendering: the audio behind a tip's `tts_url`. It speaks with espeak-ng
 * when the binary is installed and otherwise (or when it fails) plays a soft beep pattern whose
 * length follows the message, so a listener still hears that a tip played and roughly how long.
 */

// espeak-ng's native rate, so both paths produce the same format.
const SAMPLE_RATE = 22_050;
// The upstream caps tip messages well below this; the cap keeps one request from forking a
// minutes-long render.
const MAX_SPEECH_CHARS = 500;
const DEFAULT_TIMEOUT_MS = 10_000;
// 500 characters speak in well under a minute (~2.5 MB); anything bigger is a runaway process.
const MAX_SPEECH_BYTES = 8 * 1024 * 1024;
// A burst of demo tips must not fork hundreds of processes at once.
const MAX_CONCURRENT_RENDERS = 4;
// Below this espeak-ng said nothing audible (e.g. text of punctuation only).
const MIN_SPEECH_SECONDS = 0.05;

const WAV_HEADER_BYTES = 44;

export interface WavInfo {
	sampleRate: number;
	channels: number;
	bitsPerSample: number;
	/** Offset of the first sample byte. */
	dataOffset: number;
	/** Sample bytes actually present (a streamed header may claim more than was written). */
	dataBytes: number;
}

export interface SpeechOptions {
	/** An espeak-ng voice name such as `en-us`, `de` or `es+f3`; default: guessed from the script. */
	voice?: string;
	timeoutMs?: number;
}

let available: boolean | undefined;
let warnedOnce = false;

/** Whether espeak-ng can be run; probed once per process. */
export function speechAvailable(): boolean {
	if (available === undefined) {
		const probe = spawnSync('espeak-ng', ['--version'], { stdio: 'ignore', timeout: 3_000 });
		available = probe.status === 0;
	}
	return available;
}

/** A WAV file of `text` spoken aloud, or of a tone pattern when speech is unavailable. */
export async function renderSpeech(
	text: string | null | undefined,
	opts: SpeechOptions = {}
): Promise<Uint8Array> {
	const clean = normalizeText(text);
	if (clean === '' || !speechAvailable()) return renderTone(clean);
	const guessed = guessVoice(clean);
	// The voice may come from a request body: anything not shaped like a voice name never reaches argv.
	const requested = opts.voice && VOICE_NAME.test(opts.voice) ? opts.voice : undefined;
	const voices = requested && requested !== guessed ? [requested, guessed] : [guessed];
	for (const voice of voices) {
		try {
			const wav = await withSlot(() =>
				runEspeak(clean, voice, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS)
			);
			if (wavDurationSeconds(wav) >= MIN_SPEECH_SECONDS) return wav;
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code === 'ENOENT') available = false;
			if (!warnedOnce) {
				warnedOnce = true;
				console.warn(`sim/audio: espeak-ng failed (${(err as Error).message}); falling back`);
			}
		}
	}
	return renderTone(clean);
}

/**
 * A soft beep pattern lasting 0.6 s + 60 ms per character (at most 12 s); the pitches follow the
 * characters, so different messages sound different. Empty text gives a short two-note chime.
 */
export function renderTone(text?: string | null): Uint8Array {
	const chars = Array.from(normalizeText(text));
	if (chars.length === 0) return encodeWav(chime(), SAMPLE_RATE);

	const seconds = Math.min(0.6 + 0.06 * chars.length, 12);
	const samples = new Int16Array(Math.round(seconds * SAMPLE_RATE));
	const noteSamples = Math.round(0.18 * SAMPLE_RATE);
	const toneSamples = Math.round(0.14 * SAMPLE_RATE);
	const notes = Math.ceil(samples.length / noteSamples);
	for (let n = 0; n < notes; n++) {
		const char = chars[Math.floor((n * chars.length) / notes)];
		const freq = PENTATONIC[(char.codePointAt(0) ?? 0) % PENTATONIC.length];
		const start = n * noteSamples;
		for (let i = 0; i < toneSamples && start + i < samples.length; i++) {
			samples[start + i] = Math.round(32767 * 0.2 * envelope(i, toneSamples) * sine(freq, i));
		}
	}
	fadeOut(samples, Math.round(0.02 * SAMPLE_RATE));
	return encodeWav(samples, SAMPLE_RATE);
}

/** A soft tone of exactly `ms` milliseconds (at least 10 ms): a clip of known length for benches. */
export function renderClip(ms: number): Uint8Array {
	const length = Math.max(Math.round((Math.max(ms, 10) / 1000) * SAMPLE_RATE), 1);
	const samples = new Int16Array(length);
	for (let i = 0; i < length; i++)
		samples[i] = Math.round(32767 * 0.2 * envelope(i, length) * sine(PENTATONIC[4], i));
	return encodeWav(samples, SAMPLE_RATE);
}

/** A 16-bit mono PCM WAV file around `samples`. */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
	const bytes = new Uint8Array(WAV_HEADER_BYTES + samples.length * 2);
	const view = new DataView(bytes.buffer);
	writeAscii(bytes, 0, 'RIFF');
	view.setUint32(4, bytes.length - 8, true);
	writeAscii(bytes, 8, 'WAVE');
	writeAscii(bytes, 12, 'fmt ');
	view.setUint32(16, 16, true); // fmt chunk size
	view.setUint16(20, 1, true); // PCM
	view.setUint16(22, 1, true); // mono
	view.setUint32(24, sampleRate, true);
	view.setUint32(28, sampleRate * 2, true); // byte rate
	view.setUint16(32, 2, true); // block align
	view.setUint16(34, 16, true); // bits per sample
	writeAscii(bytes, 36, 'data');
	view.setUint32(40, samples.length * 2, true);
	for (let i = 0; i < samples.length; i++)
		view.setInt16(WAV_HEADER_BYTES + i * 2, samples[i], true);
	return bytes;
}

/** The format and sample data location of a RIFF/WAVE file; throws if it is not one. */
export function readWavInfo(bytes: Uint8Array): WavInfo {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (bytes.length < 12 || readFourCc(bytes, 0) !== 'RIFF' || readFourCc(bytes, 8) !== 'WAVE') {
		throw new Error('not a WAV file: no RIFF/WAVE header');
	}
	let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes'> | undefined;
	let offset = 12;
	while (offset + 8 <= bytes.length) {
		const id = readFourCc(bytes, offset);
		const size = view.getUint32(offset + 4, true);
		const body = offset + 8;
		if (id === 'fmt ') {
			if (size < 16 || body + 16 > bytes.length) throw new Error('not a WAV file: short fmt chunk');
			fmt = {
				channels: view.getUint16(body + 2, true),
				sampleRate: view.getUint32(body + 4, true),
				bitsPerSample: view.getUint16(body + 14, true)
			};
			if (fmt.channels === 0 || fmt.sampleRate === 0 || fmt.bitsPerSample === 0) {
				throw new Error('not a WAV file: empty format');
			}
		} else if (id === 'data') {
			if (!fmt) throw new Error('not a WAV file: data before fmt');
			// espeak-ng writing to a pipe cannot seek back, so its header claims ~2 GB of data.
			return { ...fmt, dataOffset: body, dataBytes: Math.min(size, bytes.length - body) };
		}
		offset = body + size + (size % 2); // chunks are padded to an even length
	}
	throw new Error('not a WAV file: no data chunk');
}

/** Playing time of a WAV file in seconds. */
export function wavDurationSeconds(bytes: Uint8Array): number {
	const info = readWavInfo(bytes);
	const frameBytes = info.channels * Math.ceil(info.bitsPerSample / 8);
	return Math.floor(info.dataBytes / frameBytes) / info.sampleRate;
}

const VOICE_NAME = /^[a-z]{2,3}(-[a-z0-9]{1,8})*(\+[a-z0-9]{1,16})?$/i;

// espeak-ng's default English voice reads other scripts as letter names (or not at all).
const SCRIPT_VOICES: ReadonlyArray<[RegExp, string]> = [
	[/\p{Script=Arabic}/gu, 'ar'],
	[/\p{Script=Hebrew}/gu, 'he'],
	[/[\p{Script=Hiragana}\p{Script=Katakana}]/gu, 'ja'],
	[/\p{Script=Hangul}/gu, 'ko'],
	[/\p{Script=Han}/gu, 'cmn'],
	[/\p{Script=Cyrillic}/gu, 'ru'],
	[/\p{Script=Greek}/gu, 'el'],
	[/\p{Script=Thai}/gu, 'th'],
	[/\p{Script=Devanagari}/gu, 'hi']
];

/** The espeak-ng voice for the script most of the letters are written in. */
export function guessVoice(text: string): string {
	let best = 'en';
	let bestCount = (text.match(/\p{Script=Latin}/gu) ?? []).length;
	const hasKana = /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text);
	for (const [pattern, voice] of SCRIPT_VOICES) {
		// Japanese mixes kanji into kana; only kana-free Han text is Chinese.
		if (voice === 'cmn' && hasKana) continue;
		let count = (text.match(pattern) ?? []).length;
		if (voice === 'ja' && hasKana) count += (text.match(/\p{Script=Han}/gu) ?? []).length;
		if (count > bestCount) [best, bestCount] = [voice, count];
	}
	return best;
}

/** Control characters (newlines included) become spaces; capped by code points, not UTF-16 units. */
function normalizeText(text: string | null | undefined): string {
	const flat = (text ?? '')
		.replace(/\p{Cc}/gu, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	const chars = Array.from(flat);
	return chars.length > MAX_SPEECH_CHARS ? chars.slice(0, MAX_SPEECH_CHARS).join('') : flat;
}

function runEspeak(text: string, voice: string, timeoutMs: number): Promise<Uint8Array> {
	return new Promise((resolve, reject) => {
		// Text goes through stdin, never argv or a shell: a message starting with `-` stays text.
		const child = spawn('espeak-ng', ['--stdout', '--stdin', '-v', voice], {
			stdio: ['pipe', 'pipe', 'pipe']
		});
		const chunks: Buffer[] = [];
		let size = 0;
		let stderr = '';
		let settled = false;
		const fail = (err: Error) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			child.kill('SIGKILL');
			reject(err);
		};
		const timer = setTimeout(() => fail(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
		child.stdout.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_SPEECH_BYTES) fail(new Error(`output over ${MAX_SPEECH_BYTES} bytes`));
			else chunks.push(chunk);
		});
		child.stderr.on('data', (chunk: Buffer) => {
			if (stderr.length < 500) stderr += chunk.toString();
		});
		child.on('error', fail);
		child.on('close', (code, signal) => {
			if (settled) return;
			if (code !== 0) {
				fail(new Error(`exit ${code ?? signal}: ${stderr.trim()}`));
				return;
			}
			try {
				const wav = fixWavSizes(new Uint8Array(Buffer.concat(chunks)));
				settled = true;
				clearTimeout(timer);
				resolve(wav);
			} catch (err) {
				fail(err as Error);
			}
		});
		// EPIPE when espeak-ng exits before reading everything; 'close' reports the real outcome.
		child.stdin.on('error', () => {});
		child.stdin.end(text);
	});
}

/** Rewrites the RIFF and data sizes that espeak-ng leaves as placeholders when streaming. */
function fixWavSizes(bytes: Uint8Array): Uint8Array {
	const info = readWavInfo(bytes);
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const end = info.dataOffset + info.dataBytes;
	view.setUint32(4, end - 8, true);
	view.setUint32(info.dataOffset - 4, info.dataBytes, true);
	return end === bytes.length ? bytes : bytes.slice(0, end);
}

let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(task: () => Promise<T>): Promise<T> {
	if (running < MAX_CONCURRENT_RENDERS) running++;
	// The finishing task hands its slot over directly, so `running` never overshoots.
	else await new Promise<void>((resolve) => waiting.push(resolve));
	try {
		return await task();
	} finally {
		const next = waiting.shift();
		if (next) next();
		else running--;
	}
}

// C major pentatonic, C5 to A6: any sequence of these sounds pleasant rather than alarming.
const PENTATONIC = [523.25, 587.33, 659.25, 783.99, 880, 1046.5, 1174.66, 1318.51, 1567.98, 1760];

function sine(freq: number, i: number): number {
	return Math.sin((2 * Math.PI * freq * i) / SAMPLE_RATE);
}

/** 10 ms attack, then an exponential decay that reaches silence at the end of the note. */
function envelope(i: number, length: number): number {
	const attack = 0.01 * SAMPLE_RATE;
	if (i < attack) return i / attack;
	const t = (i - attack) / (length - attack);
	return Math.exp(-4 * t) * (1 - t);
}

/** "Ding-dong" (E6 then C6), half a second. */
function chime(): Int16Array {
	const noteSamples = Math.round(0.25 * SAMPLE_RATE);
	const samples = new Int16Array(noteSamples * 2);
	[1318.51, 1046.5].forEach((freq, n) => {
		for (let i = 0; i < noteSamples; i++) {
			samples[n * noteSamples + i] = Math.round(
				32767 * 0.2 * envelope(i, noteSamples) * sine(freq, i)
			);
		}
	});
	return samples;
}

function fadeOut(samples: Int16Array, length: number): void {
	const from = Math.max(0, samples.length - length);
	for (let i = from; i < samples.length; i++) {
		samples[i] = Math.round((samples[i] * (samples.length - 1 - i)) / length);
	}
}

function writeAscii(bytes: Uint8Array, offset: number, text: string): void {
	for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
}

function readFourCc(bytes: Uint8Array, offset: number): string {
	return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}
