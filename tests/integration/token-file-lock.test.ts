// One token endpoint per token file, held by the kernel (src/server/file-lock.ts): real processes
// take the lock, are killed with SIGKILL and race each other. A second live process on the same file
// would refresh with the same token and get the connection revoked; a dead one must never block.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { FileGrantStore } from '../../src/server/oauth-store.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const file = () => join(mkdtempSync(join(tmpdir(), 'oauth-lock-')), 'token.json');
const children: ChildProcess[] = [];
const stores: FileGrantStore[] = [];

afterEach(async () => {
	for (const c of children.splice(0)) c.kill('SIGKILL');
	for (const s of stores.splice(0)) await s.unlock();
});

/** Starts a lock holder; resolves with its first line ("locked <pid>" or "refused: ..."). */
function holder(f: string, port = '4000'): { child: ChildProcess; line: Promise<string> } {
	const child = spawn(
		process.execPath,
		['--import', 'tsx', 'tests/fixtures/lock-holder.ts', f, port],
		{
			cwd: root,
			stdio: ['ignore', 'pipe', 'inherit']
		}
	);
	children.push(child);
	let out = '';
	const line = new Promise<string>((resolve, reject) => {
		child.stdout!.on('data', (d) => {
			out += d;
			if (out.includes('\n')) resolve(out.split('\n', 1)[0]);
		});
		child.once('exit', (code) => reject(new Error(`exited with ${code} before a line: ${out}`)));
	});
	return { child, line };
}

const killed = (child: ChildProcess) =>
	new Promise<void>((resolve) => {
		child.once('exit', () => resolve());
		child.kill('SIGKILL');
	});

it('a start while another live process holds the file is refused, naming its pid, start and address', async () => {
	const f = file();
	const first = holder(f, '4123');
	expect(await first.line).toBe(`locked ${first.child.pid}`);
	const store = new FileGrantStore(f);
	stores.push(store);
	const refusal = store.lock();
	await expect(refusal).rejects.toThrow(new RegExp(`pid ${first.child.pid}, started \\d{4}-`));
	await expect(refusal).rejects.toThrow(/serving http:\/\/localhost:4123\//);
	await expect(refusal).rejects.toThrow(
		/stop that server, or set OAUTH_TOKEN_FILE to another file/
	);
});

it('a holder killed with SIGKILL frees the file at once: the restart right after it takes the lock', async () => {
	const f = file();
	const first = holder(f);
	await first.line;
	await killed(first.child);
	const store = new FileGrantStore(f);
	stores.push(store);
	await expect(store.lock()).resolves.toBeUndefined();
});

it('a lock file of the old kind naming a live, unrelated pid does not block a start', async () => {
	const f = file();
	// The parent of this test process is alive and is not a token endpoint.
	writeFileSync(`${f}.lock`, String(process.ppid));
	const store = new FileGrantStore(f);
	stores.push(store);
	await expect(store.lock()).resolves.toBeUndefined();
});

it('two starts at the same moment on one token file: exactly one holds it, the other is refused', async () => {
	const f = file();
	const a = holder(f);
	const b = holder(f);
	const lines = await Promise.all([a.line, b.line]);
	const locked = lines.filter((l) => l.startsWith('locked'));
	const refused = lines.filter((l) => l.startsWith('refused'));
	expect(locked).toHaveLength(1);
	expect(refused).toHaveLength(1);
	const winner = locked[0].split(' ')[1];
	expect(refused[0]).toContain(`pid ${winner}`);
});

it('the same file under another spelling of its path is the same lock', async () => {
	const f = file();
	const first = holder(f);
	await first.line;
	const store = new FileGrantStore(join(f, '..', '.', 'token.json'));
	stores.push(store);
	await expect(store.lock()).rejects.toThrow(/another token endpoint uses/);
});
