// Moderation (docs/moderation.md): the streamer's rules as the token endpoint stores and the dock
// edits them, and what the token endpoint adds to every tip it hands a page (changes reach pages
// through the push channel, live.ts). Ours, not the upstream's: the upstream renders the
// speech, so the kit can only decide, before a claim's sound starts, whether a tip is read aloud.
import { z } from 'zod/mini';

/** What a rule does to a tip it matches. */
export const RuleOutcome = z.enum(['no_voice', 'hold', 'remove']);
export type RuleOutcome = z.infer<typeof RuleOutcome>;

/** A tip's decision: read aloud, shown without voice, held, removed; `pending`: not decided yet. */
export const Decided = z.enum(['read', 'no_voice', 'hold', 'remove', 'pending']);
export type Decided = z.infer<typeof Decided>;

/**
 * What decided. A tip's: a word, the name, a link, an amount rule, every tip. A video's: a word in
 * its title (`title`), its channel, its link (`video_link`), its length (`max_length`), every video,
 * its tip's amount (`video_from_amount`), the tipper's name (`name`), or its tip's own decision
 * (`tip`: held or removed with it).
 */
export const RuleKind = z.enum([
	'word',
	'name',
	'link',
	'min_amount',
	'every_tip',
	'from_amount',
	'title',
	'channel',
	'video_link',
	'max_length',
	'every_video',
	'video_from_amount',
	'tip'
]);
export type RuleKind = z.infer<typeof RuleKind>;

/**
 * A tip's or a video's decision as the token endpoint stores it (docs/moderation.md): the outcome,
 * the rule that decided, the message's spans to mask, who decided and when. Its order id (a
 * video's: `video:<order id>`) is its key in the store.
 */
export const DecisionRecord = z.object({
	outcome: z.enum(['read', 'no_voice', 'hold', 'remove']),
	/** What decided: the rule (its kind and the streamer's own text), or null: no rule matched. */
	rule: z.nullable(z.object({ kind: RuleKind, text: z.optional(z.string()) })),
	/** The message's spans to mask (UTF-16 offsets, end excluded); empty for none. */
	spans: z.array(z.tuple([z.int(), z.int()])),
	by: z.enum(['rules', 'approved', 'rejected']),
	/** ISO date-time. */
	decidedAt: z.string()
});
export type DecisionRecord = z.infer<typeof DecisionRecord>;

/** How the message is given out: as written, with blocked words masked (`•`), or not at all. */
export const MessageShown = z.enum(['shown', 'masked', 'hidden']);

/**
 * What the token endpoint adds to each tip (`moderation`) in the TTS queue, history, start and
 * finish answers, and to each video in the media ones (a video's `message` is its title: `shown`
 * or `hidden`; a video is never `no_voice`). On /api (OBS pages) the tip's `message` is already masked or null and its
 * `tts_url` is null unless the outcome is `read`; `rule` and `by` are given to the dock only.
 */
export const TipModeration = z.looseObject({
	outcome: Decided,
	message: MessageShown,
	/**
	 * Dock only: the rule that decided (its text as the streamer wrote it), null for none. Its kind
	 * is one of RuleKind; read as any string, so the pages, which never get it, carry no list of
	 * kinds, and a dock shows a kind it does not know by its name.
	 */
	rule: z.optional(z.nullable(z.looseObject({ kind: z.string(), text: z.optional(z.string()) }))),
	/** Dock only: decided by the rules, or by a person (approved / rejected a held tip). */
	by: z.optional(z.enum(['rules', 'approved', 'rejected']))
});
export type TipModeration = z.infer<typeof TipModeration>;

const RuleText = /*@__PURE__*/ z
	.string()
	.check(z.trim(), z.minLength(1, 'empty'), z.maxLength(100, 'longer than 100 characters'));
const TextRule = z.object({ text: RuleText, outcome: RuleOutcome });
const Amount = /*@__PURE__*/ z
	.number()
	.check(z.gte(0, 'below 0'), z.lte(1_000_000, 'above 1000000'));
const AmountRule = z.object({ amount: Amount, outcome: RuleOutcome });

/** What a video rule does: hold the video for a person, or remove it. */
export const VideoOutcome = z.enum(['hold', 'remove']);
export type VideoOutcome = z.infer<typeof VideoOutcome>;
const VideoTextRule = z.object({ text: RuleText, outcome: VideoOutcome });
const videoTexts = (what: string) =>
	z._default(
		/*@__PURE__*/ z.array(VideoTextRule).check(z.maxLength(1000, `more than 1000 ${what}`)),
		[]
	);

/**
 * The rules for videos (a tip's requested video, or one queued from chat). Besides these, a video
 * is held or removed with its tip, its title is matched against `words` too, and its tipper's name
 * against `names`.
 */
export const VideoRules = z.object({
	/** Blocked channels: a channel's name or handle (`@name`), matched against the whole channel. */
	channels: /*@__PURE__*/ videoTexts('channels'),
	/** Blocked links: a site (`example.com`), a link (and every link under it), or a video id. */
	links: /*@__PURE__*/ videoTexts('links'),
	/** Words and phrases matched in titles only. */
	words: /*@__PURE__*/ videoTexts('words'),
	/** Videos longer than this (from their start time); a video of unknown length is not. */
	maxSeconds: z._default(
		z.nullable(
			z.object({
				seconds: /*@__PURE__*/ z.int().check(z.gte(1, 'below 1'), z.lte(86_400, 'above 86400')),
				outcome: VideoOutcome
			})
		),
		null
	),
	/** Every video (usually `hold`). */
	every: z._default(z.nullable(VideoOutcome), null),
	/** Videos whose tip is from this amount up (usually `hold`). */
	fromAmount: z._default(z.nullable(z.object({ amount: Amount, outcome: VideoOutcome })), null)
});
export type VideoRules = z.infer<typeof VideoRules>;

/** No video rule (a fresh object each time: a default is not shared). */
export const noVideoRules = (): VideoRules => ({
	channels: [],
	links: [],
	words: [],
	maxSeconds: null,
	every: null,
	fromAmount: null
});

/** The streamer's rules (PUT /control/moderation). Every field has a default: `{}` is no rule. */
export const ModerationRules = z.object({
	/** Blocked words and phrases, matched in the message (a trailing `*` also matches longer forms). */
	words: z._default(
		/*@__PURE__*/ z.array(TextRule).check(z.maxLength(1000, 'more than 1000 words')),
		[]
	),
	/** Blocked tipper names, matched against the whole name. */
	names: z._default(
		/*@__PURE__*/ z.array(TextRule).check(z.maxLength(1000, 'more than 1000 names')),
		[]
	),
	/** A message with a link in it; null: links are allowed. */
	links: z._default(z.nullable(RuleOutcome), null),
	/** Tips below this amount (usually `no_voice`). */
	minAmount: z._default(z.nullable(AmountRule), null),
	/** Every tip (usually `hold`: a person approves each one). */
	everyTip: z._default(z.nullable(RuleOutcome), null),
	/** Tips from this amount up (usually `hold`). */
	fromAmount: z._default(z.nullable(AmountRule), null),
	/** What Reject does to a held tip: show it without voice and without its message, or remove it. */
	onReject: z._default(z.enum(['no_voice', 'remove']), 'no_voice'),
	/** The rules for videos. */
	videos: z._default(VideoRules, noVideoRules)
});
export type ModerationRules = z.infer<typeof ModerationRules>;

/** GET/PUT /control/moderation answer. `version` grows with every save. */
export const StoredRules = z.looseObject({ rules: ModerationRules, version: z.int() });
export type StoredRules = z.infer<typeof StoredRules>;

/**
 * The fields of an upstream tip that a decision needs, read leniently (docs/upstream.md: parse
 * leniently): any other field may be missing, malformed or new, and the tip is still decided, so
 * that no tip is left out of a page's answer for a field moderation does not read.
 */
export const DecidableTip = /*@__PURE__*/ z.looseObject({
	order_id: z.string(),
	name: z.string(),
	/** Absent reads as none (no message to judge or to read). */
	message: z.optional(z.nullable(z.string()))
});
/** The same for a video: who asked, its link and its title (absent when the upstream has none). */
export const DecidableVideo = /*@__PURE__*/ z.looseObject({
	order_id: z.string(),
	donor_name: z.string(),
	media_url: z.string(),
	video_title: z.optional(z.nullable(z.string()))
});
