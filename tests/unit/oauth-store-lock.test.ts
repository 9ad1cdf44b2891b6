// One token endpoint per token file (oauth-store.ts): a second live process on the same file would
// refresh with the same token and revoke the connection, so it is stopped; a dead one's lock is taken.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { FileGrantStore } from '../../src/server/oauth-store.ts';

const file = () => join(mkdtempSync(join(tmpdir(), 'oauth-lock-')), 'token.json');

it('a token file locked by another live process is refused, naming the process', () => {
	const f = file();
	// The parent of this test process is alive and is not this process.
	writeFileSync(`${f}.lock`, String(process.ppid));
	expect(() => new FileGrantStore(f).lockSync()).toThrow(
		new RegExp(`another token endpoint \\(pid ${process.ppid}\\)`)
	);
});

it('a lock left by a dead process is taken over, and this process can lock again', () => {
	const f = file();
	writeFileSync(`${f}.lock`, '2147483646');
	new FileGrantStore(f).lockSync();
	expect(readFileSync(`${f}.lock`, 'utf8')).toBe(String(process.pid));
	expect(() => new FileGrantStore(f).lockSync()).not.toThrow();
});
