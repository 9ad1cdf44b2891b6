// One process per file, held by the kernel: a listening Unix socket whose name is derived from the
// file's absolute path. Binding it is atomic (of two racing starts exactly one wins, the other gets
// EADDRINUSE), and the kernel frees it the instant the holder dies, SIGKILL and reboot included, so
// no pid is ever checked and nothing stale is ever left to clean by hand. On Linux the socket lives
// in the abstract namespace (no file at all); elsewhere it is a socket file next to the locked one,
// which a dead holder leaves behind: a refused connection to it proves that, and it is replaced.
//
// The holder answers every connection with one JSON line (pid, start time, address), so that a
// refused start can say what holds the file.
import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { basename, dirname, resolve } from 'node:path';
import { realpathSync } from 'node:fs';

export interface LockHolder {
	pid: number;
	started_at: string;
	/** Where the holder serves (its URL), once it listens. */
	address: string | null;
}

export class LockHeldError extends Error {
	constructor(
		readonly file: string,
		readonly holder: LockHolder | null
	) {
		super(
			holder
				? `another token endpoint uses ${file}: pid ${holder.pid}, started ${holder.started_at}` +
						(holder.address ? `, serving ${holder.address}` : '')
				: `another process holds the lock on ${file}`
		);
		this.name = 'LockHeldError';
	}
}

export interface HeldLock {
	/** What a refused start is told about this process. */
	readonly holder: LockHolder;
	release(): Promise<void>;
}

/** The socket name for a file: the same for every spelling of its path. */
export function lockAddress(file: string, platform: NodeJS.Platform = process.platform): string {
	const abs = resolve(file);
	let dir = dirname(abs);
	try {
		dir = realpathSync(dir);
	} catch {
		// The folder does not exist yet: its spelled path is the name.
	}
	const full = `${dir}/${basename(abs)}`;
	if (platform === 'linux')
		return `\0tip-overlay-kit-lock-${createHash('sha256').update(full).digest('hex').slice(0, 32)}`;
	return `${full}.lock.sock`;
}

/** Takes the lock on `file`, or rejects with LockHeldError naming the holder. */
export async function acquireFileLock(file: string): Promise<HeldLock> {
	const address = lockAddress(file);
	const holder: LockHolder = {
		pid: process.pid,
		started_at: new Date().toISOString(),
		address: null
	};
	const server = createServer((socket) => {
		socket.on('error', () => {});
		socket.end(JSON.stringify(holder) + '\n');
	});
	for (let attempt = 0; ; attempt++) {
		const err = await listen(server, address);
		if (!err) break;
		if (err.code !== 'EADDRINUSE') throw err;
		const answer = await askHolder(address);
		if (answer.alive) throw new LockHeldError(file, answer.holder);
		// A socket file left by a dead holder (not on Linux: abstract names die with their holder).
		if (address.startsWith('\0') || attempt > 0) throw new LockHeldError(file, null);
		try {
			unlinkSync(address);
		} catch {
			// Another start removed it first; the next listen decides between us.
		}
	}
	// Held for the process's life, without keeping it alive on its own.
	server.unref();
	return {
		holder,
		release: () =>
			new Promise<void>((done) => {
				server.close(() => done());
			})
	};
}

function listen(server: Server, address: string): Promise<NodeJS.ErrnoException | null> {
	return new Promise((done) => {
		const onError = (err: NodeJS.ErrnoException) => {
			server.off('listening', onListening);
			done(err);
		};
		const onListening = () => {
			server.off('error', onError);
			done(null);
		};
		server.once('error', onError);
		server.once('listening', onListening);
		server.listen({ path: address, exclusive: true });
	});
}

/** Connects to a held lock: who holds it, or that nobody does (connection refused). */
function askHolder(address: string): Promise<{ alive: boolean; holder: LockHolder | null }> {
	return new Promise((done) => {
		let text = '';
		const socket = createConnection({ path: address });
		const timer = setTimeout(() => finish(true), 2000);
		const finish = (alive: boolean) => {
			clearTimeout(timer);
			socket.destroy();
			let holder: LockHolder | null = null;
			try {
				const parsed = JSON.parse(text.split('\n', 1)[0]) as Partial<LockHolder>;
				if (typeof parsed.pid === 'number' && typeof parsed.started_at === 'string')
					holder = {
						pid: parsed.pid,
						started_at: parsed.started_at,
						address: typeof parsed.address === 'string' ? parsed.address : null
					};
			} catch {
				// Not our answer, or none yet: the holder is still named by its lock.
			}
			done({ alive, holder });
		};
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => {
			text += chunk;
			if (text.includes('\n')) finish(true);
		});
		socket.on('end', () => finish(true));
		socket.on('error', (err: NodeJS.ErrnoException) =>
			finish(!(err.code === 'ECONNREFUSED' || err.code === 'ENOENT'))
		);
	});
}
