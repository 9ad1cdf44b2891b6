// Synthesises the alert sounds shipped in public/sounds/ (`npx tsx src/tools/make-sounds.ts`).
// They are made here from sine partials and envelopes, so they are ours to give away: CC0. Mono
// 16-bit PCM WAV at 22.05 kHz (every Chromium plays it; no encoder needed), a few kB each.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RATE = 22_050;

/** A note: start and length in seconds, frequency, partials (multiple, relative level), decay. */
interface Note {
	at: number;
	len: number;
	hz: number;
	partials: ReadonlyArray<readonly [multiple: number, level: number]>;
	/** Exponential decay rate per second (0: held, then released). */
	decay: number;
	level: number;
	/** Frequency glide per second (multiplier), for the pop. */
	glide?: number;
}

function render(notes: readonly Note[], seconds: number): Float32Array {
	const out = new Float32Array(Math.ceil(seconds * RATE));
	for (const n of notes) {
		const start = Math.floor(n.at * RATE);
		const len = Math.floor(n.len * RATE);
		const attack = Math.floor(0.004 * RATE);
		const release = Math.floor(0.03 * RATE);
		let phase = 0;
		for (let i = 0; i < len && start + i < out.length; i++) {
			const t = i / RATE;
			const hz = n.hz * (n.glide ? Math.pow(n.glide, t) : 1);
			phase += (2 * Math.PI * hz) / RATE;
			let env = Math.exp(-n.decay * t);
			if (i < attack) env *= i / attack;
			if (len - i < release) env *= (len - i) / release;
			let s = 0;
			for (const [m, l] of n.partials) s += l * Math.sin(phase * m);
			out[start + i] += s * env * n.level;
		}
	}
	return out;
}

function wav(samples: Float32Array): Buffer {
	const peak = samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0) || 1;
	const gain = 0.85 / peak;
	const data = Buffer.alloc(samples.length * 2);
	samples.forEach((s, i) => data.writeInt16LE(Math.round(s * gain * 32767), i * 2));
	const head = Buffer.alloc(44);
	head.write('RIFF', 0);
	head.writeUInt32LE(36 + data.length, 4);
	head.write('WAVEfmt ', 8);
	head.writeUInt32LE(16, 16);
	head.writeUInt16LE(1, 20); // PCM
	head.writeUInt16LE(1, 22); // mono
	head.writeUInt32LE(RATE, 24);
	head.writeUInt32LE(RATE * 2, 28);
	head.writeUInt16LE(2, 32);
	head.writeUInt16LE(16, 34);
	head.write('data', 36);
	head.writeUInt32LE(data.length, 40);
	return Buffer.concat([head, data]);
}

const BELL = [
	[1, 1],
	[2.76, 0.35],
	[5.4, 0.12]
] as const;
const SOFT = [
	[1, 1],
	[2, 0.25],
	[3, 0.08]
] as const;
const BRASS = [
	[1, 1],
	[2, 0.6],
	[3, 0.4],
	[4, 0.22],
	[5, 0.12]
] as const;

export const SOUNDS: Record<string, () => Float32Array> = {
	// A short soft blip for every tip.
	pop: () =>
		render([{ at: 0, len: 0.16, hz: 880, partials: SOFT, decay: 18, level: 1, glide: 0.12 }], 0.2),
	// Two quick rising notes, like a coin.
	coin: () =>
		render(
			[
				{ at: 0, len: 0.09, hz: 988, partials: SOFT, decay: 4, level: 0.8 },
				{ at: 0.08, len: 0.42, hz: 1319, partials: SOFT, decay: 7, level: 0.9 }
			],
			0.5
		),
	// Two bell strikes.
	chime: () =>
		render(
			[
				{ at: 0, len: 0.9, hz: 1319, partials: BELL, decay: 4.5, level: 0.8 },
				{ at: 0.14, len: 0.9, hz: 1976, partials: BELL, decay: 4.5, level: 0.6 }
			],
			1.05
		),
	// A rising major arpeggio, the last note held.
	fanfare: () =>
		render(
			[
				{ at: 0, len: 0.16, hz: 523, partials: BRASS, decay: 2, level: 0.7 },
				{ at: 0.15, len: 0.16, hz: 659, partials: BRASS, decay: 2, level: 0.7 },
				{ at: 0.3, len: 0.16, hz: 784, partials: BRASS, decay: 2, level: 0.7 },
				{ at: 0.45, len: 0.75, hz: 1047, partials: BRASS, decay: 1.6, level: 0.8 },
				{ at: 0.45, len: 0.75, hz: 523, partials: BRASS, decay: 1.6, level: 0.35 }
			],
			1.25
		)
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const dir = new URL('../../public/sounds/', import.meta.url);
	for (const [name, make] of Object.entries(SOUNDS)) {
		const file = new URL(`${name}.wav`, dir);
		writeFileSync(file, wav(make()));
		console.log(fileURLToPath(file));
	}
}
