// The hosted bench's sign-in (client.ts): each streamer signs in as a person would, through an
// instance (its /auth/start, the simulator's consent page, the callback, the dashboard), and the
// overlay key is read off the dashboard's overlay URL.
import type { SimReady } from './sim.ts';

/** One streamer's sign-in, through instance `origin`: returns their overlay key. */
export async function signIn(origin: string, sim: SimReady, tenant: string): Promise<string> {
	const start = await fetch(`${origin}/auth/start`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin }
	});
	const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
	const requestId = /name="request_id" value="([^"]+)"/.exec(await consent.text())?.[1];
	if (!requestId) throw new Error(`no consent page (${consent.status})`);
	const decided = await fetch(`${sim.oauthUrl}/oauth/authorize`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sim.origin },
		body: new URLSearchParams({ request_id: requestId, decision: 'approve', tenant })
	});
	const back = await fetch(decided.headers.get('location')!, { redirect: 'manual' });
	const cookie = back.headers.get('set-cookie')?.split(';')[0];
	if (back.status !== 303 || !cookie) throw new Error(`the callback answered ${back.status}`);
	const html = await (await fetch(`${origin}/dashboard`, { headers: { cookie } })).text();
	const key = /\?key=([A-Za-z0-9_-]{20,})/.exec(html)?.[1];
	if (!key) throw new Error('no overlay URL on the dashboard');
	return key;
}

export async function inParallel<T>(n: number, width: number, job: (i: number) => Promise<T>) {
	const out: T[] = new Array(n);
	let at = 0;
	await Promise.all(
		Array.from({ length: Math.min(width, n) }, async () => {
			while (at < n) {
				const i = at++;
				out[i] = await job(i);
			}
		})
	);
	return out;
}
