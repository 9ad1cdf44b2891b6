// GET /healthz: whether the server is up and can reach its upstream (its intake's socket open says
// so; else checked at most every 15 s, so a monitor polling it does not spend the upstream's rate
// limit), and the state of the streamer's intake (intake/intake.ts). Hosted mode reports its own.
import type { Hono } from 'hono';
import { Me } from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';
import { SINGLE_STREAMER } from '../caller.ts';

const RECHECK_MS = 15_000;

export function healthRoute(
	app: Hono,
	opts: Pick<AppOptions, 'mode' | 'upstream' | 'simulatorOrigin' | 'health' | 'intakeOf'>
) {
	let health: { at: number; reachable: boolean } | null = null;
	app.get('/healthz', async (c) => {
		if (opts.health) {
			const body = await opts.health();
			return c.json(body, body.ok === false ? 503 : 200);
		}
		const intake = opts.intakeOf?.(SINGLE_STREAMER)?.status();
		// The intake's socket open says the upstream is reachable and takes the credential: no read.
		if (intake?.connected) health = { at: Date.now(), reachable: true };
		else if (!health || Date.now() - health.at > RECHECK_MS) {
			let reachable = false;
			try {
				const res = await opts.upstream.call('GET', '/me');
				reachable = res.ok && Me.safeParse(await res.json()).success;
			} catch {
				reachable = false;
			}
			health = { at: Date.now(), reachable };
		}
		return c.json({
			ok: true,
			mode: opts.mode,
			upstream: { reachable: health.reachable },
			...(intake ? { intake } : {}),
			...(opts.mode === 'demo' && opts.simulatorOrigin ? { simulator: opts.simulatorOrigin } : {})
		});
	});
}
