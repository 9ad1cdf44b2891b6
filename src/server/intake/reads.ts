// The upstream reads that answer each part of the live view (src/core/view/parts.ts), made with the
// streamer's upstream client and checked with the contract's schemas.
import type { z } from 'zod/mini';
import {
	CountersBody,
	LeaderboardBody,
	MediaHistoryBody,
	MediaQueueBody,
	OverlaysBody,
	parseWith,
	TipGoalBody,
	TippingBody,
	TtsHistoryBody,
	TtsQueueBody
} from '../../contract/index.ts';
import type { Snapshots } from '../../core/view/parts.ts';
import type { ViewPart } from '../../core/view/parts.ts';
import type { UpstreamClient } from '../upstream.ts';

/**
 * A part's read: its answer; or `lacking` (403 or 404: the credential may not read it, so the view
 * goes without that part until the next connect); or `failed` (anything else: read again later).
 */
export type PartRead<P extends ViewPart> =
	{ ok: true; body: Snapshots[P] } | { ok: false; lacking: boolean; error: string };

type Reader = Pick<UpstreamClient, 'call'>;

async function get<S extends z.ZodMiniType>(
	upstream: Reader,
	path: string,
	schema: S
): Promise<{ ok: true; value: z.infer<S> } | { ok: false; lacking: boolean; error: string }> {
	const res = await upstream.call('GET', path);
	if (!res.ok) {
		await res.body?.cancel();
		const lacking = res.status === 403 || res.status === 404;
		return { ok: false, lacking, error: `GET ${path}: ${res.status}` };
	}
	const parsed = parseWith(schema, await res.json().catch(() => null));
	return parsed.ok ? parsed : { ok: false, lacking: false, error: `GET ${path}: ${parsed.error}` };
}

/** Reads `part` from the upstream (the limits: how deep the view keeps its lists). */
export async function readPart<P extends ViewPart>(
	upstream: Reader,
	part: P,
	limits: { historyDepth: number; leaderboardDepth: number }
): Promise<PartRead<P>> {
	const depth = `?limit=${limits.historyDepth}`;
	const read = async (): Promise<PartRead<ViewPart>> => {
		switch (part) {
			case 'tts':
				return body(await get(upstream, '/tts/queue', TtsQueueBody));
			case 'media':
				return body(await get(upstream, '/media/queue', MediaQueueBody));
			case 'ttsHistory':
				return body(await get(upstream, `/tts/history${depth}`, TtsHistoryBody));
			case 'mediaHistory':
				return body(await get(upstream, `/media/history${depth}`, MediaHistoryBody));
			case 'counters':
				return body(await get(upstream, '/counters', CountersBody));
			case 'goals':
				return readGoals(upstream);
			case 'tipping':
				return body(await get(upstream, '/tipping', TippingBody));
			default: {
				const path = `/leaderboard?limit=${limits.leaderboardDepth}`;
				return body(await get(upstream, path, LeaderboardBody));
			}
		}
	};
	return (await read()) as PartRead<P>;
}

function body<T>(
	r: { ok: true; value: T } | { ok: false; lacking: boolean; error: string }
): { ok: true; body: T } | { ok: false; lacking: boolean; error: string } {
	return r.ok ? { ok: true, body: r.value } : r;
}

/** Every overlay's tip goal: the list, then each one's goal (an overlay gone meanwhile is left out). */
async function readGoals(upstream: Reader): Promise<PartRead<'goals'>> {
	const list = await get(upstream, '/overlays', OverlaysBody);
	if (!list.ok) return list;
	const goals: Snapshots['goals'] = {};
	for (const { id } of list.value.overlays) {
		const goal = await get(upstream, `/overlays/${id}/tip-goal`, TipGoalBody);
		if (goal.ok) goals[id] = goal.value.tip_goal;
		else if (!goal.lacking) return goal;
	}
	return { ok: true, body: goals };
}
