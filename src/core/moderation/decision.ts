// A tip's moderation decision and the tip as each audience is given it (docs/moderation.md). Pure:
// the token endpoint decides with the streamer's compiled rules (matcher.ts), stores the decision
// once, and rewrites every tip it hands out with `present`.
import type {
	DecisionRecord,
	ModerationRules,
	QueueTip,
	RuleKind,
	TipModeration
} from '../../contract/index.ts';
import { compileRules, maskMessage } from './matcher.ts';

/** A decision (its record, contract/moderation.ts) and the order it is for. */
export type Decision = DecisionRecord & { orderId: string };

/** Rules compiled once per version: checking a tip is then a walk of the message. */
export type Judge = (tip: Pick<QueueTip, 'order_id' | 'name' | 'amount' | 'message'>) => Decision;

export function judge(rules: ModerationRules, now: () => Date = () => new Date()): Judge {
	const compiled = compileRules(rules);
	return (tip) => {
		const message = tip.message ?? '';
		// A tip with no amount (a sub reward) is neither below nor above an amount rule.
		const verdict = compiled.check({ name: tip.name, amount: tip.amount ?? NaN, message });
		const by = verdict.decidedBy;
		const spans: [number, number][] = [];
		for (const m of verdict.matches)
			if (m.start !== undefined && m.end !== undefined) spans.push([m.start, m.end]);
		return {
			orderId: tip.order_id,
			outcome: verdict.outcome,
			rule: by ? ruleOf(by, rules) : null,
			spans,
			by: 'rules',
			decidedAt: now().toISOString()
		};
	};
}

/** The rule as the dock names it: a word or name as written, an amount rule by its amount. */
function ruleOf(
	by: { kind: RuleKind; rule?: string },
	rules: ModerationRules
): NonNullable<Decision['rule']> {
	const amount =
		by.kind === 'min_amount'
			? rules.minAmount?.amount
			: by.kind === 'from_amount'
				? rules.fromAmount?.amount
				: undefined;
	const text = by.rule ?? (amount === undefined ? undefined : String(amount));
	return { kind: by.kind, ...(text !== undefined ? { text } : {}) };
}

/** Approve (read aloud, as written) or Reject (the rules' `onReject`) of a held decision. */
export function settled(
	held: Decision,
	how: 'approve' | 'reject',
	onReject: ModerationRules['onReject'],
	now: Date = new Date()
): Decision {
	return {
		...held,
		outcome: how === 'approve' ? 'read' : onReject,
		by: how === 'approve' ? 'approved' : 'rejected',
		decidedAt: now.toISOString()
	};
}

/** How much of the message a decision lets out: as written, masked, or nothing. */
function messageShown(d: Decision, audience: 'page' | 'dock'): TipModeration['message'] {
	if (d.outcome === 'read') return 'shown';
	if (d.outcome === 'no_voice' && d.by === 'rejected') return 'hidden';
	if (d.outcome === 'no_voice' && d.rule?.kind === 'name') return 'hidden';
	if (audience === 'page' && d.outcome !== 'no_voice') return 'hidden';
	return d.spans.length ? 'masked' : 'shown';
}

/**
 * The tip as `audience` gets it. Pages (OBS sources) get no audio unless it is read aloud, the
 * message masked or null, and no rule text (it is the blocked word); the dock gets the rule and
 * who decided, and the masked message even of a held tip (the whole one on request only).
 * `decision` null: not decided (the store could not be reached): nothing of the message, no audio.
 */
export function present<T extends QueueTip>(
	tip: T,
	decision: Decision | null,
	audience: 'page' | 'dock'
): T {
	if (decision === null)
		return {
			...tip,
			tts_url: null,
			message: null,
			moderation: { outcome: 'pending', message: 'hidden' }
		};
	const shown = messageShown(decision, audience);
	const message =
		tip.message === null || shown === 'hidden'
			? null
			: shown === 'masked'
				? maskMessage(tip.message, spansAsMatches(decision.spans))
				: tip.message;
	const moderation: TipModeration = { outcome: decision.outcome, message: shown };
	if (audience === 'dock') Object.assign(moderation, { rule: decision.rule, by: decision.by });
	return {
		...tip,
		tts_url: decision.outcome === 'read' ? tip.tts_url : null,
		message,
		moderation
	};
}

/** A decision as the dock is given it (the Activity's entries keep it so). */
export function dockModeration(decision: Decision): TipModeration {
	const { outcome, rule, by } = decision;
	return { outcome, message: messageShown(decision, 'dock'), rule, by };
}

function spansAsMatches(spans: readonly [number, number][]) {
	return spans.map(([start, end]) => ({
		kind: 'word' as const,
		outcome: 'hold' as const,
		start,
		end
	}));
}
