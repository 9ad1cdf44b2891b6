// Where the hosted bench's CPU goes: each process's CPU time (Linux /proc/<pid>/stat, utime + stime)
// over a phase, as a share of one core, for the simulator, the load client, each instance and the
// PostgreSQL server (its postmaster and every backend). Elsewhere than Linux it reports nothing.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const HZ = 100;

function stat(pid: number): { ppid: number; ticks: number } | null {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The fields after the command name (which may hold spaces) in parentheses.
		const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
		return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
	} catch {
		return null;
	}
}

/** The PostgreSQL server listening on `port`: its postmaster and its backends. */
function postgresPids(port: string): number[] {
	const all = readdirSync('/proc')
		.filter((d) => /^\d+$/.test(d))
		.map(Number);
	const master = all.find((pid) => {
		try {
			const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
			return cmd[0].endsWith('postgres') && cmd.join(' ').includes(`-p ${port}`);
		} catch {
			return false;
		}
	});
	if (master === undefined) return [];
	return [master, ...all.filter((pid) => stat(pid)?.ppid === master)];
}

export type Processes = Record<string, () => number[]>;

/** The processes' CPU seconds now (a group of processes: summed; its backends come and go). */
function sample(processes: Processes): Map<string, Map<number, number>> {
	const out = new Map<string, Map<number, number>>();
	for (const [name, pids] of Object.entries(processes)) {
		const m = new Map<number, number>();
		for (const pid of pids()) {
			const s = stat(pid);
			if (s) m.set(pid, s.ticks / HZ);
		}
		out.set(name, m);
	}
	return out;
}

/**
 * Starts measuring; the returned function gives each process's share of one core since, and its
 * CPU time in all.
 */
export function cpuMeter(
	processes: Processes
): () => { share: Record<string, number>; seconds: Record<string, number> } {
	const t0 = performance.now();
	const before = sample(processes);
	return () => {
		const s = (performance.now() - t0) / 1000;
		const after = sample(processes);
		const share: Record<string, number> = {};
		const seconds: Record<string, number> = {};
		for (const [name, pids] of after) {
			let used = 0;
			for (const [pid, cpu] of pids) used += cpu - (before.get(name)?.get(pid) ?? 0);
			share[name] = Math.round((used / s) * 100) / 100;
			seconds[name] = used;
		}
		return { share, seconds };
	};
}

export { postgresPids };
