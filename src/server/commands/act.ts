// What a checked run of a chat command does (docs/dock.md, Commands): the dock's button through the
// same control path (src/server/control-actions.ts, one at a time per streamer in the control
// lock), or Approve / Reject of the oldest held tip of a name (src/server/moderation/settle.ts).
import { ROUTES } from '../../contract/index.ts';
import { pickHeld, type CommandDoes } from '../../core/commands.ts';
import type { ControlLock } from '../control-lock.ts';
import { ask, CONTROL_ACTIONS } from '../control-actions.ts';
import { HttpError } from '../http-error.ts';
import type { Moderator } from '../moderation/moderator.ts';
import type { UpstreamClient } from '../upstream.ts';
import type { Run } from './store.ts';

export type Outcome = Pick<Run, 'outcome' | 'message'>;

export interface ActParts {
	moderator: Moderator;
	lock: ControlLock;
}

/** The outcome of doing `does`; an answer that does not say whether it was done is `unknown`. */
export async function act(
	parts: ActParts,
	streamer: string,
	upstream: UpstreamClient,
	does: CommandDoes,
	name: string | null
): Promise<Outcome> {
	try {
		if ('verdict' in does)
			return await settleByName(parts, streamer, upstream, does.verdict, name!);
		return await parts.lock(streamer, () => pressed(upstream, does.action));
	} catch (err) {
		if (err instanceof HttpError && err.status < 500)
			return { outcome: 'failed', message: err.message };
		return {
			outcome: 'unknown',
			message: 'the upstream did not say whether it was done: check the stream'
		};
	}
}

/** A dock button; a skip names what plays now, as the dock's Skip names what it shows playing. */
async function pressed(upstream: UpstreamClient, action: keyof typeof CONTROL_ACTIONS) {
	const control = CONTROL_ACTIONS[action];
	if (!control.order) return control.run(upstream);
	const queue = await ask(upstream, action === 'media-skip' ? ROUTES.mediaQueue : ROUTES.ttsQueue);
	if (queue.current_order_id === null)
		return { outcome: 'already' as const, message: 'nothing is playing' };
	return control.run(upstream, queue.current_order_id);
}

async function settleByName(
	{ moderator }: ActParts,
	streamer: string,
	upstream: UpstreamClient,
	how: 'approve' | 'reject',
	name: string
): Promise<Outcome> {
	const { items } = await ask(upstream, ROUTES.ttsQueue);
	const decisions = await moderator.decisions(streamer, items);
	if (decisions === null) return { outcome: 'failed', message: 'the decisions cannot be read now' };
	const held = items.filter((tip) => decisions.get(tip.order_id)?.outcome === 'hold');
	const picked = pickHeld(held, name);
	if (!picked.ok) return { outcome: 'refused', message: picked.why };
	const settled = await moderator.settle(streamer, upstream, {
		how,
		queue: 'tts',
		orderId: picked.tip.order_id
	});
	const did = how === 'approve' ? 'approved' : 'rejected';
	return settled.outcome === 'done'
		? { outcome: 'done', message: `${did} the tip of ${picked.tip.name}` }
		: { outcome: 'already', message: `the tip of ${picked.tip.name} was settled already` };
}
