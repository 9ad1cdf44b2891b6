// Single mode's console line about refused keys (src/server/routes/key-guard.ts): a streamer learns
// that a source with an old URL is knocking, once a minute at most, and never reads a key there.
import { describe, expect, it } from 'vitest';
import { keyRefusalLog } from '../../src/server/routes/key-guard.ts';

describe('the refused-keys console line', () => {
	it('says once a minute that wrong keys are slowed, naming the address, never for a single wrong key', () => {
		const lines: string[] = [];
		let now = 0;
		const log = keyRefusalLog(
			(line) => lines.push(line),
			() => now
		);
		log('wrong_key', '127.0.0.1');
		expect(lines).toEqual([]);
		for (let i = 0; i < 50; i++) log('too_many_attempts', '127.0.0.1');
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(/127\.0\.0\.1.*429.*old URL.*right keys keep working/);
		now += 59_999;
		log('too_many_attempts', '127.0.0.1');
		expect(lines).toHaveLength(1);
		now += 1;
		log('too_many_attempts', '127.0.0.1');
		log('cross_site', '127.0.0.1');
		log('cross_site', '127.0.0.1');
		expect(lines).toHaveLength(3);
		expect(lines[2]).toMatch(/another site.*403 cross_site/);
	});
});
