// What the hosted bench's processes have in hand during a phase, once a second: each instance's
// database pool (connections busy, queries waiting for one) and its refreshes at their locks (from
// its /metrics), and PostgreSQL's own view (pg_stat_activity: backends by instance and state, those
// waiting for an advisory lock; pg_locks: advisory locks granted and waited for). Sampled from the
// bench's own process, so a stalled instance shows as a missing or late sample, not as nothing.
import pg from 'pg';

export interface Sample {
	t: number;
	/** Per instance (by its port): the gauges of its /metrics, null if it did not answer in 2 s. */
	instances: Record<string, Record<string, number> | null>;
	/** Backends by application_name and state (`instance-1 active`, `instance-2 idle`, ...). */
	backends: Record<string, number>;
	/** Backends waiting for an advisory lock, by application_name. */
	lockWaits: Record<string, number>;
	advisory: { granted: number; waiting: number };
}

const GAUGES =
	/^(tip_db_pool_connections|tip_db_pool_waiting|tip_refresh_locks)(\{[^}]*\})? (\S+)$/gm;

export function startSampler(databaseUrl: string, origins: string[]) {
	const client = new pg.Client({
		connectionString: databaseUrl,
		application_name: 'bench-sampler'
	});
	const samples: Sample[] = [];
	let timer: ReturnType<typeof setInterval> | null = null;
	const connected = client.connect();

	async function metrics(origin: string): Promise<Record<string, number> | null> {
		try {
			const res = await fetch(`${origin}/metrics`, { signal: AbortSignal.timeout(2000) });
			const out: Record<string, number> = {};
			for (const m of (await res.text()).matchAll(GAUGES))
				out[`${m[1]}${m[2] ?? ''}`] = Number(m[3]);
			return out;
		} catch {
			return null;
		}
	}

	async function take(): Promise<void> {
		const t = Date.now();
		const [instances, activity, locks] = await Promise.all([
			Promise.all(origins.map(metrics)),
			client.query<{ app: string; state: string | null; lock: boolean; n: string }>(
				`select application_name as app, state,
					wait_event_type = 'Lock' and wait_event = 'advisory' as lock, count(*) as n
				from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()
				group by 1, 2, 3`
			),
			client.query<{ granted: boolean; n: string }>(
				`select granted, count(*) as n from pg_locks where locktype = 'advisory' group by 1`
			)
		]);
		const backends: Record<string, number> = {};
		const lockWaits: Record<string, number> = {};
		for (const r of activity.rows) {
			const key = `${r.app || '?'} ${r.state ?? '?'}`;
			backends[key] = (backends[key] ?? 0) + Number(r.n);
			if (r.lock) lockWaits[r.app || '?'] = (lockWaits[r.app || '?'] ?? 0) + Number(r.n);
		}
		samples.push({
			t,
			instances: Object.fromEntries(origins.map((o, i) => [new URL(o).port, instances[i]])),
			backends,
			lockWaits,
			advisory: {
				granted: Number(locks.rows.find((r) => r.granted)?.n ?? 0),
				waiting: Number(locks.rows.find((r) => !r.granted)?.n ?? 0)
			}
		});
	}

	return {
		async start(): Promise<void> {
			await connected;
			let busy = false;
			timer = setInterval(() => {
				if (busy) return;
				busy = true;
				void take()
					.catch(() => {})
					.finally(() => (busy = false));
			}, 1000);
		},
		/** Stops sampling; the samples and their peaks. */
		async stop(): Promise<{ samples: Sample[]; peaks: Record<string, number> }> {
			if (timer) clearInterval(timer);
			await client.end().catch(() => {});
			const peaks: Record<string, number> = {};
			const peak = (k: string, v: number) => (peaks[k] = Math.max(peaks[k] ?? 0, v));
			for (const s of samples) {
				for (const [port, g] of Object.entries(s.instances)) {
					if (!g) {
						peak(`:${port} no answer`, (peaks[`:${port} no answer`] ?? 0) + 1);
						continue;
					}
					for (const [k, v] of Object.entries(g)) peak(`${k.replace(/^tip_/, '')}`, v);
				}
				peak('pg advisory granted', s.advisory.granted);
				peak('pg advisory waiting', s.advisory.waiting);
				for (const [k, v] of Object.entries(s.lockWaits)) peak(`pg lock waits ${k}`, v);
			}
			return { samples, peaks };
		}
	};
}
