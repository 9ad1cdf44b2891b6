// The TTS queue in the claim reducer's vocabulary: upstream calls through the token endpoint, and
// what a realtime event does to the claim runner (the events in docs/upstream.md). What it shares with
// the media queue is in claim-queue.ts.
// Moderation (docs/moderation.md): the token endpoint decides, the page obeys. A tip is shown and
// played only as the token endpoint handed it out with its decision (`moderation`): the answer of
// its start, or a read of the queue. A tip from a realtime event is a hint: claimed as soon as its
// audio is ready (claims never wait for a read), with nothing of its message or audio kept; the
// start is the gate (409 held for a held tip, passed over) and its answer is what plays. In a read,
// held and removed tips are left out, so they never hold the queue back; a `no_voice` tip is ready
// at once; an undecided one (`pending`) waits.
import type { KnownEvent, QueueTip } from '../contract/index.ts';
import type { ClaimItem } from '../core/claim-protocol.ts';
import type { ApiClient } from './api.ts';
import { claimEventInput, claimItem, toCallResult, toSnapshot } from './claim-queue.ts';
import type { ClaimRunner, QueuePort } from './claim-runner.ts';
import * as routes from '../contract/routes.ts';

/** The decision lets the tip be played: read aloud, or shown without voice. */
export function playable(tip: QueueTip): boolean {
	const outcome = tip.moderation?.outcome;
	return outcome === 'read' || outcome === 'no_voice';
}

/** The tip waits for its decision: none yet, or the token endpoint could not decide it. */
function undecided(tip: QueueTip): boolean {
	const outcome = tip.moderation?.outcome;
	return outcome === undefined || outcome === 'pending';
}

/** The reducer's item for a tip as the token endpoint handed it out. */
function ttsItem(tip: QueueTip): ClaimItem<QueueTip> {
	const outcome = tip.moderation?.outcome;
	return claimItem(tip, outcome === 'no_voice' || (outcome === 'read' && tip.tts_url !== null));
}

/**
 * A tip heard of by event: in its place, claimable once its audio is ready, but with nothing of its
 * message or audio kept (not even for a preload): what plays is the start's answer.
 */
function hintItem(tip: QueueTip): ClaimItem<QueueTip> {
	const data: QueueTip = { ...tip, message: null, tts_url: null };
	delete data.moderation;
	return claimItem(data, tip.tts_url !== null);
}

/**
 * `claims`: whether this copy claims now (its `claim` is not `never`). Only a copy that claims sends
 * a read ticket with its queue read (docs/upstream.md, read tickets): a spectator's read (the
 * preview's frames, after each start) is then a plain read, which the server's live view answers
 * at no cost to the upstream, where a ticketed one always goes upstream.
 */
export function ttsQueuePort(
	api: ApiClient,
	claims: () => boolean = () => true
): QueuePort<QueueTip> {
	return {
		async snapshot() {
			const res = await api.request(routes.ttsQueue, {}, { ticket: claims() });
			const read = toSnapshot(res, ttsItem);
			if (!read.ok) return read;
			// Held and removed tips are not ours to play: left out, they hold nothing back.
			const items = read.value.items.filter((i) => playable(i.data) || undecided(i.data));
			return { ok: true, value: { ...read.value, items } };
		},
		// A 409 held is passed over by the reducer (src/core/claim/calls.ts) and read again.
		start: async (orderId) =>
			toCallResult(await api.request(routes.ttsStart, { orderId }), (b) => b.tip as QueueTip),
		finish: async (orderId) => toCallResult(await api.request(routes.ttsFinish, { orderId })),
		release: async (orderId) => toCallResult(await api.request(routes.ttsRelease, { orderId }))
	};
}

export type TtsRunner = Pick<ClaimRunner<QueueTip>, 'dispatch' | 'requestSnapshot' | 'snapshot'>;

/** What a realtime event does to the TTS claim runner (nothing for events of other queues). */
export function applyTtsEvent(runner: TtsRunner, event: KnownEvent): void {
	switch (event.type) {
		case 'tip.created':
		case 'queue.tts.replayed':
			return runner.dispatch({ kind: 'added', item: hintItem(event.data.tip) });
		case 'tip.tts_ready': {
			const orderId = event.data.order_id;
			const known = runner.snapshot.items.find((i) => i.orderId === orderId)?.data;
			// A no-voice tip has no audio to wait for; a hint stays without it (its start's answer
			// brings the audio if it may be heard); only a tip decided `read` takes the URL.
			if (known?.moderation?.outcome === 'no_voice') return;
			const data =
				known?.moderation?.outcome === 'read' ? { ...known, tts_url: event.data.tts_url } : known;
			return runner.dispatch({ kind: 'ready', orderId, data });
		}
		case 'queue.tts.cleared':
			return runner.dispatch({ kind: 'cleared' });
		default: {
			const input = claimEventInput<QueueTip>('tts', event);
			if (input) runner.dispatch(input);
		}
	}
}
