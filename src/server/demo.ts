// The preview's buttons: demo actions on the embedded simulator (demo mode), and a test tip through
// the upstream (live mode, when the key has tips:create). Each action is named; nothing else runs.
import type { UpstreamClient } from './upstream.ts';

export const DEMO_ACTIONS = [
	'tip',
	'tiers',
	'media',
	'counter',
	'goal',
	'celebrate',
	'drop',
	'delay-audio',
	'break-audio',
	'clear-faults'
] as const;
export type DemoAction = (typeof DEMO_ACTIONS)[number];

/** One tip per built-in alert tier (widgets/tts/tiers.ts): small, gold, and the one that celebrates. */
const TIER_TIPS = [
	{ name: 'SmallChange', amount: 5, message: 'A little something for the stream.' },
	{ name: 'GoldenGoose', amount: 25, message: 'Twenty five for the gold alert!' },
	{ name: 'BigSpender', amount: 150, message: 'One hundred fifty: confetti time!' }
];

const TIPS = [
	{ name: 'PixelPanda', amount: 5, message: 'Love the stream! Say hi to chat for me.' },
	{ name: 'Sofía_GG', amount: 10, message: '¡Vamos! That last round was incredible.' },
	{ name: 'NightOwl42', amount: 2.5, message: 'Good luck on the next run!' },
	{ name: 'ハルカ', amount: 20, message: 'いつも楽しい配信をありがとう！' }
];

interface Call {
	/** Simulator control API (demo mode) or the upstream API (with the key). */
	via: 'sim' | 'upstream';
	method: 'POST';
	path: string;
	body?: unknown;
}

/** The calls an action makes, in order (most make one). */
function plan(action: DemoAction, n: number, simOrigin: string): Call[] {
	if (action === 'tiers')
		return TIER_TIPS.map((tip) => ({
			via: 'sim',
			method: 'POST',
			path: '/_sim/tips',
			body: { ...tip, paid: true }
		}));
	return [planOne(action, n, simOrigin)];
}

function planOne(action: Exclude<DemoAction, 'tiers'>, n: number, simOrigin: string): Call {
	const tip = TIPS[n % TIPS.length];
	switch (action) {
		case 'tip':
			return { via: 'sim', method: 'POST', path: '/_sim/tips', body: { ...tip, paid: true } };
		case 'media':
			return {
				via: 'sim',
				method: 'POST',
				path: '/_sim/tips',
				body: {
					name: tip.name,
					amount: 5,
					message: 'Watch this!',
					paid: true,
					media_url: `${simOrigin}/demo/countdown.webm`
				}
			};
		case 'counter':
			return { via: 'upstream', method: 'POST', path: '/counters/deaths/increment', body: {} };
		case 'goal':
			return {
				via: 'upstream',
				method: 'POST',
				path: '/overlays/o_1a2b3c4d/tip-goal/add',
				body: { amount: 25 }
			};
		case 'celebrate':
			return { via: 'upstream', method: 'POST', path: '/overlays/celebration', body: {} };
		case 'drop':
			return { via: 'sim', method: 'POST', path: '/_sim/faults/drop', body: { refuse_ms: 3000 } };
		case 'delay-audio':
			return { via: 'sim', method: 'POST', path: '/_sim/faults/audio', body: { delay_ms: 6000 } };
		case 'break-audio':
			return { via: 'sim', method: 'POST', path: '/_sim/faults/audio', body: { break_next: 1 } };
		case 'clear-faults':
			return { via: 'sim', method: 'POST', path: '/_sim/faults/clear' };
	}
}

/** Actions on the whole simulator: the hosted demo's streamers share it, so they are refused there. */
const SHARED_FAULTS: readonly DemoAction[] = ['drop', 'delay-audio', 'break-audio', 'clear-faults'];

/**
 * The hosted demo (several streamers on one simulator): a tip goes to the signed-in streamer's own
 * account (named by GET /me with their authorization) and the goal is their own Main scene's.
 */
async function forStreamer(calls: Call[], upstream: UpstreamClient): Promise<Call[] | Response> {
	const read = async (path: string) => {
		const res = await upstream.call('GET', path);
		return res.ok ? ((await res.json()) as Record<string, unknown>) : null;
	};
	if (calls.some((c) => c.via === 'sim')) {
		const tenant = ((await read('/me'))?.tenant as { id?: string } | undefined)?.id;
		if (!tenant) return Response.json({ error: 'GET /me failed' }, { status: 502 });
		return calls.map((c) => ({ ...c, body: { ...(c.body as object), tenant } }));
	}
	const goal = calls.find((c) => c.path.includes('/tip-goal/'));
	if (!goal) return calls;
	const overlays = ((await read('/overlays'))?.overlays ?? []) as { id: string }[];
	if (!overlays[0]) return Response.json({ error: 'no overlay' }, { status: 404 });
	return [{ ...goal, path: `/overlays/${overlays[0].id}/tip-goal/add` }];
}

export async function runDemoAction(
	action: DemoAction,
	opts: {
		mode: 'live' | 'demo';
		simulatorOrigin?: string;
		upstream: UpstreamClient;
		n: number;
		/** Hosted demo: the simulator is shared by several streamers. */
		perStreamer?: boolean;
	}
): Promise<Response> {
	if (opts.mode === 'live') {
		if (action !== 'tip')
			return Response.json({ error: 'demo actions need demo mode' }, { status: 404 });
		// A test tip through the upstream: it needs tips:create (a 403 passes through).
		const res = await opts.upstream.call(
			'POST',
			'/tips',
			JSON.stringify({
				name: 'Test tip',
				amount: 1,
				message: 'This is a test tip from the preview.',
				source: 'test'
			})
		);
		return new Response(await res.text(), {
			status: res.status,
			headers: { 'content-type': 'application/json' }
		});
	}
	const sim = opts.simulatorOrigin;
	if (!sim) return Response.json({ error: 'no simulator' }, { status: 404 });
	let calls = plan(action, opts.n, sim);
	if (opts.perStreamer) {
		if (SHARED_FAULTS.includes(action))
			return Response.json(
				{ error: 'faults are not available in the hosted demo: every streamer shares its service' },
				{ status: 404 }
			);
		const mine = await forStreamer(calls, opts.upstream);
		if (mine instanceof Response) return mine;
		calls = mine;
	}
	// Every plan has at least one call; the first failing one answers.
	let res!: Response;
	for (const call of calls) {
		const body = call.body === undefined ? undefined : JSON.stringify(call.body);
		res =
			call.via === 'sim'
				? await fetch(sim + call.path, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body
					})
				: await opts.upstream.call(call.method, call.path, body);
		if (!res.ok) break;
	}
	return new Response(res.ok ? JSON.stringify({ ok: true, action }) : await res.text(), {
		status: res.ok ? 200 : res.status,
		headers: { 'content-type': 'application/json' }
	});
}
