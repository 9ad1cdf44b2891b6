// A throwaway PostgreSQL server for the integration tier: Debian's `postgresql` package (installed
// by .ci/run), a fresh cluster in a temporary directory on a free port, trust authentication for
// the user `app`, stopped and removed afterwards. initdb refuses to run as root, so as root the
// cluster belongs to the `postgres` user. Without the package a test skips locally and fails in CI.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../fixtures/ports.ts';

export interface PostgresServer {
	/** Over TCP on 127.0.0.1. */
	url: string;
	/** Over the server's Unix socket (in its temporary directory), as a same-machine deployment would. */
	socketUrl: string;
	/**
	 * Freezes the server (SIGSTOP of the postmaster and every process it started): its sockets stay
	 * open and nothing answers, as a hung host would. Returns the thaw (SIGCONT), safe to call twice.
	 */
	freeze(): () => void;
	stop(): Promise<void>;
}

/** The postmaster of the cluster in `data` and its children (Linux: /proc). */
function serverProcesses(data: string): number[] {
	const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
	const children: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// pid (comm) state ppid ...: the fields after the last ')'.
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (ppid === postmaster) children.push(Number(entry));
		} catch {
			// Gone meanwhile.
		}
	}
	return [postmaster, ...children];
}

function binDir(): string | null {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return null;
	const versions = readdirSync(root)
		.filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? join(root, versions[0], 'bin') : null;
}

/** Why PostgreSQL cannot run here, or null when it can. */
export function postgresMissing(): string | null {
	return binDir() ? null : 'no PostgreSQL server binaries (apt-get install -y postgresql)';
}

export async function startPostgres(): Promise<PostgresServer> {
	const bin = binDir();
	if (!bin) throw new Error(postgresMissing()!);
	const root = process.getuid?.() === 0;
	const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
	const as = (cmd: string, args: string[]) =>
		root
			? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], {
					stdio: 'pipe'
				})
			: execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
	if (root) {
		const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
		const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
		chownSync(dir, uid, gid);
	}
	const data = join(dir, 'data');
	as('initdb', ['-D', data, '-A', 'trust', '-U', 'app', '--no-sync']);
	const port = await freePort();
	as('pg_ctl', [
		'-D',
		data,
		'-o',
		`-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
		'-l',
		join(dir, 'log'),
		'-w',
		'start'
	]);
	return {
		url: `postgres://app@127.0.0.1:${port}/postgres`,
		socketUrl: `postgres://app@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`,
		freeze() {
			const pids = serverProcesses(data);
			for (const pid of pids) process.kill(pid, 'SIGSTOP');
			let thawed = false;
			return () => {
				if (thawed) return;
				thawed = true;
				for (const pid of [...pids].reverse())
					try {
						process.kill(pid, 'SIGCONT');
					} catch {
						// Ended meanwhile.
					}
			};
		},
		async stop() {
			try {
				as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		}
	};
}
