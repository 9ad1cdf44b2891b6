// Overlays and their tip goals (docs/upstream.md, records and overlays). A goal's `current` is
// computed from the tip ledger each time it is read, so it is always the truth.
import type { Overlay, QueueTip, Tenant, TipGoal } from '../../contract/index.ts';

export interface GoalSettings {
	enabled: boolean;
	title: string;
	amount: number;
	starts_at: string | null;
	ends_at: string | null;
	/** Amounts added with POST /overlays/{id}/tip-goal/add. */
	added: number;
}

export interface OverlayState {
	overlay: Overlay;
	goal: GoalSettings;
}

/** Only paid tips whose queued_at lies inside [starts_at, ends_at] count, plus added amounts. */
export function goalCurrent(goal: GoalSettings, ledger: readonly QueueTip[]): number {
	const from = goal.starts_at ? Date.parse(goal.starts_at) : -Infinity;
	const to = goal.ends_at ? Date.parse(goal.ends_at) : Infinity;
	let sum = goal.added;
	for (const tip of ledger) {
		if (!tip.is_paid || tip.amount === null) continue;
		const at = Date.parse(tip.queued_at);
		if (at >= from && at <= to) sum += tip.amount;
	}
	// Cents: avoid 0.1 + 0.2 artefacts in what the overlay shows.
	return Math.round(sum * 100) / 100;
}

export function tipGoalOf(state: OverlayState, ledger: readonly QueueTip[]): TipGoal {
	const { added: _added, ...fields } = state.goal;
	return { ...fields, current: goalCurrent(state.goal, ledger) };
}

/** A demo account: the tenant GET /me names, and the ids of its three demo overlays. */
export interface DemoTenant extends Tenant {
	overlayIds: readonly [string, string, string];
}

/**
 * The demo streamers. A simulator has the first; the hosted demo has all three (its consent page
 * asks which one is signing in), each with their own queues, events and overlay ids.
 */
export const DEMO_TENANTS: readonly DemoTenant[] = [
	{
		id: 'tn_demo',
		name: 'Demo Streamer',
		currency: 'USD',
		currency_symbol: '$',
		overlayIds: ['o_1a2b3c4d', 'o_5e6f7a8b', 'o_9c0d1e2f']
	},
	{
		id: 'tn_nova',
		name: 'Nova Plays',
		currency: 'EUR',
		currency_symbol: '€',
		overlayIds: ['o_2b3c4d5e', 'o_6f7a8b9c', 'o_0d1e2f3a']
	},
	{
		id: 'tn_kai',
		name: 'Kai Speedruns',
		currency: 'GBP',
		currency_symbol: '£',
		overlayIds: ['o_3c4d5e6f', 'o_7a8b9c0d', 'o_1e2f3a4b']
	}
];

/** The demo overlays: different resolutions and widget sets, with the account's overlay ids. */
export function demoOverlays(
	now: Date,
	ids: readonly string[] = DEMO_TENANTS[0].overlayIds
): OverlayState[] {
	return demoOverlayStates(now).map((o, i) => ({ ...o, overlay: { ...o.overlay, id: ids[i] } }));
}

/**
 * The demo overlays with their goals (a goal's dates follow `now`): three overlays written out in
 * full, which read better as one table than built from parts.
 */
// eslint-disable-next-line max-lines-per-function -- a data table: the three demo overlays in full
function demoOverlayStates(now: Date): OverlayState[] {
	const dayStart = new Date(now);
	dayStart.setUTCHours(0, 0, 0, 0);
	return [
		{
			overlay: {
				id: 'o_1a2b3c4d',
				name: 'Main scene',
				width: 1920,
				height: 1080,
				widgets: [
					{ id: 'w_main_tts', type: 'tts', settings: { x: 64, y: 64, width: 720 } },
					{ id: 'w_main_media', type: 'media', settings: { x: 1216, y: 64, width: 640 } },
					{ id: 'w_main_goal', type: 'tip_goal', settings: { x: 64, y: 960, width: 800 } },
					{ id: 'w_main_counters', type: 'counter', settings: { x: 1500, y: 960 } },
					{ id: 'w_main_party', type: 'celebration', settings: {} }
				]
			},
			goal: {
				enabled: true,
				title: 'New microphone',
				amount: 250,
				starts_at: dayStart.toISOString(),
				ends_at: null,
				added: 0
			}
		},
		{
			overlay: {
				id: 'o_5e6f7a8b',
				name: 'Just chatting (720p)',
				width: 1280,
				height: 720,
				widgets: [
					{ id: 'w_chat_tts', type: 'tts', settings: {} },
					{ id: 'w_chat_deaths', type: 'counter', settings: { name: 'deaths' } },
					{ id: 'w_chat_party', type: 'celebration', settings: {} }
				]
			},
			goal: { enabled: false, title: '', amount: 0, starts_at: null, ends_at: null, added: 0 }
		},
		{
			overlay: {
				id: 'o_9c0d1e2f',
				name: 'Vertical (mobile)',
				width: 1080,
				height: 1920,
				widgets: [
					{ id: 'w_vert_goal', type: 'tip_goal', settings: {} },
					{ id: 'w_vert_media', type: 'media', settings: {} },
					{ id: 'w_vert_party', type: 'celebration', settings: {} }
				]
			},
			goal: {
				enabled: true,
				title: 'Charity stream',
				amount: 1000,
				starts_at: null,
				ends_at: new Date(now.getTime() + 7 * 24 * 3600_000).toISOString(),
				added: 120
			}
		}
	];
}
