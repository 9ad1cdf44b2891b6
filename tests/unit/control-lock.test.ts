// The dock's default lock (src/server/control-lock.ts): one action of a streamer at a time, in the
// order pressed; a failed action does not hold up the next; streamers do not wait for each other.
import { describe, expect, it } from 'vitest';
import { localControlLock } from '../../src/server/control-lock.ts';

/** An action that records its start and end and ends when `release` is called. */
function gated(log: string[], name: string) {
	let release!: () => void;
	const gate = new Promise<void>((resolve) => (release = resolve));
	const action = async () => {
		log.push(`${name} start`);
		await gate;
		log.push(`${name} end`);
		return name;
	};
	return { action, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('localControlLock', () => {
	it("runs a streamer's actions one at a time, in the order they came", async () => {
		const lock = localControlLock();
		const log: string[] = [];
		const a = gated(log, 'a');
		const b = gated(log, 'b');
		const first = lock('s', a.action);
		const second = lock('s', b.action);
		await settle();
		expect(log).toEqual(['a start']);
		b.release();
		await settle();
		expect(log).toEqual(['a start']);
		a.release();
		expect(await Promise.all([first, second])).toEqual(['a', 'b']);
		expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
	});

	it('a failed action rejects its own caller and the next one still runs', async () => {
		const lock = localControlLock();
		const failing = lock('s', async () => {
			throw new Error('upstream down');
		});
		const next = lock('s', async () => 'ran');
		await expect(failing).rejects.toThrow('upstream down');
		await expect(next).resolves.toBe('ran');
	});

	it('two streamers do not wait for each other', async () => {
		const lock = localControlLock();
		const log: string[] = [];
		const a = gated(log, 'a');
		const held = lock('streamer-a', a.action);
		await expect(lock('streamer-b', async () => 'b')).resolves.toBe('b');
		a.release();
		await held;
	});
});
