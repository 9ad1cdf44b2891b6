// A file written so that a crash leaves either the old text or the new, never half of one: a temp
// file with owner-only permissions, fsync, rename, fsync of the folder. And such a file read back
// at start.
import { readFileSync } from 'node:fs';
import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The disk's flush of a file written: a seam where a test stalls the disk
 * (tests/integration/stalled-disk.test.ts), as a disk that stops answering would.
 */
export const disk = { sync: (fh: FileHandle): Promise<void> => fh.sync() };

export async function writeDurably(where: string, text: string): Promise<void> {
	const dir = dirname(where);
	await mkdir(dir, { recursive: true });
	const tmp = `${where}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
	const fh = await open(tmp, 'w', 0o600);
	try {
		await fh.writeFile(text);
		await disk.sync(fh);
	} finally {
		await fh.close();
	}
	await rename(tmp, where);
	// The rename itself is durable only once the folder is synced.
	const dh = await open(dir, 'r');
	try {
		await dh.sync();
	} catch {
		// Some file systems refuse fsync on a folder; the rename is still atomic there.
	} finally {
		await dh.close();
	}
}

/**
 * A stored file's text at start, or null when there is none yet; one that cannot be read throws
 * `Failure` naming it, so the server stops rather than start afresh over it.
 */
export function readStored(where: string, Failure: new (message: string) => Error): string | null {
	try {
		return readFileSync(where, 'utf8');
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw new Failure(`cannot read ${where}: ${(err as Error).message}`);
	}
}
