// What the dock shows of moderation (moderation.md), as pure functions of its model: the held tips,
// each tip's badge, the rule that decided in words, and a tip record from a realtime event made
// safe to show. The token endpoint decides; the dock only shows its decisions (`moderation` on the
// tips of /control/api/tts/queue and /tts/history) and asks it to approve or reject.
import type { QueueTip, TipModeration } from '../../src/contract/index.ts';
import type { CurrencyInfo } from '../shared/currency.ts';
import { formatAmount } from '../shared/currency.ts';

/** A tip the token endpoint has not decided for this dock yet: its message is not shown. */
const UNDECIDED: TipModeration = { outcome: 'pending', message: 'hidden' };

/**
 * A tip record from a realtime event: the upstream's, with the viewer's raw message and no
 * decision (a `moderation` in it is not the token endpoint's: the events come straight from the
 * upstream, so it is ignored). It takes the decision and the (masked) message of the record the dock read (`known`);
 * without one it is undecided, its message withheld, until the dock reads the queue (`decided`
 * false asks for that).
 */
export function fromEvent<T extends QueueTip>(
	raw: T,
	known: QueueTip | null | undefined
): { tip: T; decided: boolean } {
	const m = known?.moderation;
	if (known && m && m.outcome !== 'pending') {
		const tts_url = m.outcome === 'read' ? raw.tts_url : null;
		return { tip: { ...raw, moderation: m, message: known.message, tts_url }, decided: true };
	}
	return { tip: { ...raw, moderation: UNDECIDED, message: null, tts_url: null }, decided: false };
}

/** The queue's tips waiting for a person's Approve or Reject, in queue order. */
export function heldTips(items: readonly QueueTip[] | null | undefined): QueueTip[] {
	return (items ?? []).filter((t) => t.moderation?.outcome === 'hold');
}

/** Up next's tips: every queued one but those the rules removed (they never play). */
export function upNextTips(items: readonly QueueTip[] | null | undefined): QueueTip[] | null {
	return items ? items.filter((t) => t.moderation?.outcome !== 'remove') : null;
}

/** Tips whose decision is still to come (the decision store was unreachable, or an event's tip). */
export function undecided(items: readonly QueueTip[] | null | undefined): boolean {
	return (items ?? []).some((t) => t.moderation?.outcome === 'pending');
}

/** The badge a tip shows in Up next and Now playing; null for a tip read aloud. */
export function badgeOf(tip: QueueTip): string | null {
	switch (tip.moderation?.outcome) {
		case 'no_voice':
			return 'no voice';
		case 'hold':
			return 'held';
		case 'pending':
			return 'checking…';
		default:
			return null;
	}
}

/** An amount rule's text (the server's, a number as written) as money when it is a number. */
function money(text: string | undefined, currency: CurrencyInfo | null): string {
	const n = text === undefined || text.trim() === '' ? NaN : Number(text);
	return Number.isFinite(n) ? formatAmount(n, currency) : (text ?? 'an amount');
}

/** The rule that decided, as the streamer wrote it: `word: <text>`, `every tip`, `from $50`. */
export function ruleLabel(m: TipModeration | undefined, currency: CurrencyInfo | null): string {
	const rule = m?.rule;
	if (!rule) return m?.by === 'approved' || m?.by === 'rejected' ? `${m.by} in the dock` : 'rules';
	switch (rule.kind) {
		case 'word':
			return `word: ${rule.text ?? '?'}`;
		case 'name':
			return `name: ${rule.text ?? '?'}`;
		case 'link':
			return 'a link';
		case 'every_tip':
			return 'every tip';
		case 'min_amount':
			return `below ${money(rule.text, currency)}`;
		case 'from_amount':
			return `from ${money(rule.text, currency)}`;
		case 'title':
			return `title word: ${rule.text ?? '?'}`;
		case 'channel':
			return `channel: ${rule.text ?? '?'}`;
		case 'video_link':
			return `link: ${rule.text ?? '?'}`;
		case 'max_length':
			return `longer than ${rule.text ?? '?'} s`;
		case 'every_video':
			return 'every video';
		case 'video_from_amount':
			return `video from ${money(rule.text, currency)}`;
		case 'tip':
			return 'its tip';
		default:
			return rule.kind.replaceAll('_', ' ');
	}
}
