// Shared by the dock's integration tests (control-*.test.ts): the token endpoint with a control key
// in front of a fresh simulator per test, a request helper that speaks as the dock does
// (X-Control-Key), and the simulator-side helpers to put tips and videos into play.
import type { Upstream } from '../../src/server/config.ts';
import { CONTROL_ACTIONS } from '../../src/server/control-actions.ts';
import { api, readyTip, simsPerTest, type Sim } from '../fixtures/sim.ts';
import {
	send,
	simUpstream,
	tokenEndpoint,
	type Endpoint,
	type SendOptions
} from '../fixtures/token-endpoint.ts';

export const CONTROL_KEY = 'integration-control-key-0123456789';

const start = simsPerTest();

export interface Answer {
	status: number;
	body: any;
	headers: Headers;
}

export interface Rig extends Endpoint {
	sim: Sim;
	/** A request as the dock sends it: X-Control-Key (default: the right one; null: none). */
	dock(
		method: string,
		target: string,
		o?: { key?: string | null; body?: unknown } & Omit<SendOptions, 'key' | 'body'>
	): Promise<Answer>;
	/** POST /control/actions/<action>, with `{ order_id }` when given. */
	act(action: string, orderId?: string): Promise<Answer>;
}

/**
 * A simulator (generous rate limits) and the endpoint in front of it, with the control key and a
 * newControlKey that makes keys in memory.
 */
export async function rig(
	o: {
		/** The upstream the endpoint talks to (default: the simulator with its demo key). */
		upstream?: (sim: Sim) => Upstream;
		options?: Parameters<typeof tokenEndpoint>[1];
	} = {}
): Promise<Rig> {
	const sim = await start({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
	let made = 0;
	const endpoint = tokenEndpoint(o.upstream?.(sim) ?? simUpstream(sim), {
		controlKey: CONTROL_KEY,
		newControlKey: async () => `integration-new-control-key-${++made}-0123456789`,
		...o.options
	});
	const dock: Rig['dock'] = async (method, target, opts = {}) => {
		const { key = CONTROL_KEY, body, headers, ...rest } = opts;
		const res = await send(endpoint.app, method, target, {
			...rest,
			key: null,
			headers: { ...headers, ...(key === null ? {} : { 'x-control-key': key }) },
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
		});
		const text = await res.text();
		return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
	};
	return {
		...endpoint,
		sim,
		dock,
		act: (action, orderId) =>
			dock('POST', `/control/actions/${action}`, {
				body: orderId === undefined ? undefined : { order_id: orderId }
			})
	};
}

/** Every call of /control behind the credential, each with a body it would accept. */
export function controlCalls(orderId = 'tip_1_abc'): [string, string, unknown][] {
	return [
		['POST', '/control/token', undefined],
		['GET', '/control/api/me', undefined],
		['GET', '/control/api/tts/queue', undefined],
		['GET', '/control/api/tts/history?limit=5', undefined],
		['GET', '/control/api/media/queue', undefined],
		['GET', '/control/api/media/history', undefined],
		['GET', '/control/api/tipping', undefined],
		...Object.entries(CONTROL_ACTIONS).map(([name, a]): [string, string, unknown] => [
			'POST',
			`/control/actions/${name}`,
			a.order ? { order_id: orderId } : undefined
		]),
		['GET', '/control/api/counters', undefined],
		['POST', '/control/counters', { name: 'keys-check' }],
		['POST', '/control/counters/keys-check/add', { by: 1 }],
		['PUT', '/control/counters/keys-check', { value: 0 }],
		['POST', '/control/counters/keys-check/delete', undefined],
		['GET', '/control/api/overlays/o_1a2b3c4d/tip-goal', undefined],
		['PUT', '/control/overlays/o_1a2b3c4d/tip-goal', { title: 'Keys' }],
		['POST', '/control/celebrate', {}],
		['POST', '/control/new-key', undefined]
	];
}

/** A tip with its audio ready, claimed as a widget would claim it: now playing. */
export async function playingTip(sim: Sim, input: Parameters<typeof readyTip>[1] = {}) {
	const tip = await readyTip(sim, input);
	const started = await api(sim, 'POST', `/tts/${tip.order_id}/start`);
	if (started.status !== 200) throw new Error(`start answered ${started.status}`);
	return tip.order_id as string;
}

/** A tip played to its end: it is in the history. */
export async function playedTip(sim: Sim, input: Parameters<typeof readyTip>[1] = {}) {
	const orderId = await playingTip(sim, input);
	const finished = await api(sim, 'POST', `/tts/${orderId}/finish`);
	if (finished.status !== 200) throw new Error(`finish answered ${finished.status}`);
	return orderId;
}

/** A demo video queued directly; its order id. */
export async function queuedVideo(sim: Sim, file = 'countdown'): Promise<string> {
	const res = await api(sim, 'POST', '/media/queue', {
		body: { url: `${sim.origin}/demo/${file}.webm` }
	});
	if (res.status !== 201) throw new Error(`POST /media/queue answered ${res.status}`);
	return res.body.media.order_id as string;
}

export async function playingVideo(sim: Sim, file = 'countdown'): Promise<string> {
	const orderId = await queuedVideo(sim, file);
	const started = await api(sim, 'POST', `/media/${orderId}/start`);
	if (started.status !== 200) throw new Error(`start answered ${started.status}`);
	return orderId;
}

export async function playedVideo(sim: Sim, file = 'countdown'): Promise<string> {
	const orderId = await playingVideo(sim, file);
	const finished = await api(sim, 'POST', `/media/${orderId}/finish`);
	if (finished.status !== 200) throw new Error(`finish answered ${finished.status}`);
	return orderId;
}

/** The simulator's queue and history, straight from its API. */
export async function upstreamState(sim: Sim, q: 'tts' | 'media') {
	const queue = (await api(sim, 'GET', `/${q}/queue`)).body;
	const history = (await api(sim, 'GET', `/${q}/history?limit=100`)).body;
	return {
		queue,
		queued: (queue.items as { order_id: string }[]).map((i) => i.order_id),
		played: ((q === 'tts' ? history.tips : history.media) as { order_id: string }[]).map(
			(i) => i.order_id
		)
	};
}

/** A page's call (the overlay key) through the endpoint: its status and JSON body. */
export async function pageCall(r: Rig, method: string, target: string) {
	const res = await send(r.app, method, target);
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The moderation rules saved as the dock saves them; the stored rules. */
export async function withRules(r: Rig, rules: object) {
	const saved = await r.dock('PUT', '/control/moderation', { body: rules });
	if (saved.status !== 200)
		throw new Error(`the rules were refused: ${JSON.stringify(saved.body)}`);
	return saved.body;
}
