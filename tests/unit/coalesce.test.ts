// One run at a time (src/core/coalesce.ts): what the preview's chat log and a page's stored
// settings read on every push channel message. Many messages during a read cost one more read,
// not one each, and none is lost: a message heard after a read began is read after it.
import { expect, it } from 'vitest';
import { coalesced } from '../../src/core/coalesce.ts';

it('runs once more after the run under way, however many calls came meanwhile', async () => {
	const gates: (() => void)[] = [];
	let runs = 0;
	const read = coalesced(async () => {
		runs++;
		await new Promise<void>((r) => gates.push(r));
	});
	const first = read();
	for (let i = 0; i < 5; i++) void read();
	expect(runs).toBe(1);
	gates.shift()!();
	await new Promise((r) => setTimeout(r, 0));
	expect(runs).toBe(2);
	gates.shift()!();
	await first;
	expect(runs).toBe(2);
	void read();
	expect(runs).toBe(3);
	gates.shift()!();
});
