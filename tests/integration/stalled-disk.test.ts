// No store on an alert's path, single mode: the disk under the moderation file stalls (every
// durable write's flush waits, src/server/durable-file.ts `disk`) for 10 s while tips arrive, with
// two TTS consumers on the token endpoint. Every tip no rule holds starts within 1 s of its
// creation and plays once (decided from the rules in memory); a tip a rule holds never plays; once
// the disk answers again every decision is in the file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ModerationRules } from '../../src/contract/index.ts';
import { disk } from '../../src/server/durable-file.ts';
import { moderationFile } from '../../src/server/moderation/store.ts';
import { SINGLE_STREAMER } from '../../src/server/caller.ts';
import { serveTokenEndpoint } from '../fixtures/served-endpoint.ts';
import { until, withSim } from '../fixtures/sim.ts';
import { simUpstream } from '../fixtures/token-endpoint.ts';
import { startTtsConsumer } from '../fixtures/tts-consumer.ts';
import { firstStart, okCalls, paidTip } from '../fixtures/alert-path.ts';

const STALL_MS = 10_000;
const TIPS = 6;
const APART_MS = 1_500;
/** The bound the alert's path promises (docs/reliability.md). */
const STARTS_WITHIN_MS = 1_000;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Stalls every durable write's flush until `answer` is called; `waiting`: the flushes held. */
function stallDisk() {
	const sync = disk.sync;
	let answer!: () => void;
	const answered = new Promise<void>((r) => (answer = r));
	let waiting = 0;
	disk.sync = async (fh) => {
		waiting++;
		await answered;
		return sync(fh);
	};
	return {
		waiting: () => waiting,
		answer: () => {
			disk.sync = sync;
			answer();
		}
	};
}

describe('single mode with a stalled disk', { timeout: 60_000 }, () => {
	it('tips start within 1 s and play once; held ones wait; the file settles after', async () => {
		const sim = await withSim({
			audioClipMs: 300,
			perKeyPerMinute: 10_000,
			perIpPerMinute: 10_000
		});
		cleanups.push(() => sim.close());
		const dir = mkdtempSync(join(tmpdir(), 'stalled-disk-'));
		cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
		const file = join(dir, '.moderation.json');
		const moderation = moderationFile(file);
		// A rule that holds the big tips: those wait for their decision to be stored.
		await moderation.saveRules(
			SINGLE_STREAMER,
			ModerationRules.parse({ fromAmount: { amount: 100, outcome: 'hold' } })
		);
		const endpoint = await serveTokenEndpoint(simUpstream(sim), { moderation });
		cleanups.push(() => endpoint.close());
		const consumers = [0, 1].map(() => startTtsConsumer(endpoint.origin));
		cleanups.push(() => consumers.forEach((c) => c.close()));
		await until(() => consumers.every((c) => c.runner.snapshot.synced), 15_000);
		const first = paidTip(sim, 0);
		await until(() => okCalls(sim, 'finish', first.id) === 1, 15_000);

		const { answer, waiting } = stallDisk();
		cleanups.push(answer);
		const stalledAt = Date.now();
		const tips: { id: string; at: number }[] = [];
		let held = null;
		for (let i = 1; i <= TIPS; i++) {
			tips.push(paidTip(sim, i));
			if (i === 3) held = paidTip(sim, 100, 500);
			// The pace of the tips' arrival, not a wait for a result.
			await pause(APART_MS);
		}
		await until(() => tips.every((t) => firstStart(consumers, t.id) < Infinity), 5_000);
		expect(Date.now() - stalledAt).toBeLessThan(STALL_MS);
		// Their decisions were waiting for the disk, which was stalled all along.
		expect(waiting()).toBeGreaterThan(0);
		await pause(stalledAt + STALL_MS - Date.now());
		answer();

		await until(() => tips.every((t) => okCalls(sim, 'finish', t.id) === 1), 15_000);
		const delays = tips.map((t) => firstStart(consumers, t.id) - t.at);
		console.info(`[stalled disk] tip start delays (ms): ${delays.join(', ')}`);
		for (const d of delays) expect(d).toBeLessThan(STARTS_WITHIN_MS);
		for (const t of [first, ...tips]) {
			expect(okCalls(sim, 'start', t.id)).toBe(1);
			expect(consumers.flatMap((c) => c.playsOf(t.id))).toHaveLength(1);
		}
		expect(consumers.flatMap((c) => c.playsOf(held!.id))).toEqual([]);
		// The bookkeeping settled once the disk answered: every decision in the file (as a restart
		// reads it), the held one held.
		const ids = [...tips, held!].map((t) => t.id);
		await until(() => ids.every((id) => readFileSync(file, 'utf8').includes(id)), 5_000);
		await moderation.close();
		const stored = await moderationFile(file).get(SINGLE_STREAMER, ids);
		expect(stored.get(held!.id)?.outcome).toBe('hold');
		for (const t of tips) expect(stored.get(t.id)?.outcome).toBe('read');
	});
});
