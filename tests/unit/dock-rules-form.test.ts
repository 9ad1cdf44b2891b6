// The dock's Rules form and the rules it stands for (widgets/dock/rules-form.ts): what a save sends
// for what the streamer typed, the tips' rules and the videos', the form made back from saved
// rules, and a refusal (the form's own check or the server's `words.3.text: empty`,
// `videos.channels.0.text: empty`) named as the streamer wrote it.
import { describe, expect, it } from 'vitest';
import { ModerationRules, noVideoRules } from '../../src/contract/moderation.ts';
import {
	describeRefusal,
	formFromRules,
	NO_RULES,
	rulesFromForm,
	sameRules,
	type RulesForm
} from '../../widgets/dock/rules-form.ts';

const SAVED: ModerationRules = {
	words: [
		{ text: 'spam*', outcome: 'no_voice' },
		{ text: 'free money', outcome: 'hold' },
		{ text: 'slur', outcome: 'remove' },
		{ text: 'rude', outcome: 'no_voice' }
	],
	names: [{ text: 'Troll', outcome: 'remove' }],
	links: 'hold',
	minAmount: { amount: 2, outcome: 'no_voice' },
	everyTip: null,
	fromAmount: { amount: 50, outcome: 'hold' },
	onReject: 'remove',
	videos: noVideoRules()
};

function form(edit: Partial<RulesForm> = {}): RulesForm {
	return { ...formFromRules(NO_RULES), ...edit };
}

function rules(f: RulesForm, base: ModerationRules = NO_RULES): ModerationRules {
	const r = rulesFromForm(f, base);
	if (!r.ok) throw new Error(r.error);
	return r.rules;
}

describe('the rules form', () => {
	it('shows saved rules as three lists of lines each, and the choices as set', () => {
		const f = formFromRules(SAVED);
		expect(f.words).toEqual({ no_voice: 'spam*\nrude', hold: 'free money', remove: 'slur' });
		expect(f.names).toEqual({ no_voice: '', hold: '', remove: 'Troll' });
		expect(f).toMatchObject({
			links: 'hold',
			minAmount: '2',
			minOutcome: 'no_voice',
			holdEvery: false,
			fromAmount: '50',
			onReject: 'remove'
		});
	});

	it('saves what the form shows: made back into a form, the same rules again', () => {
		const back = rules(formFromRules(SAVED), SAVED);
		expect(formFromRules(back)).toEqual(formFromRules(SAVED));
		// The contract accepts it as it is.
		expect(ModerationRules.safeParse(back).success).toBe(true);
	});

	it('an empty form is no rule at all', () => {
		expect(rules(form())).toEqual(NO_RULES);
		expect(formFromRules(NO_RULES).links).toBe('allowed');
	});

	it('takes one word or phrase a line: blank lines and spaces around dropped, repeats once', () => {
		const r = rules(
			form({ words: { no_voice: '  spam \n\n spam\nfree  money ', hold: '', remove: '' } })
		);
		expect(r.words).toEqual([
			{ text: 'spam', outcome: 'no_voice' },
			{ text: 'free  money', outcome: 'no_voice' }
		]);
	});

	it('reads the amounts as typed: empty is off, a decimal comma is a point', () => {
		const r = rules(form({ minAmount: '2,5', minOutcome: 'hold', fromAmount: ' ' }));
		expect(r.minAmount).toEqual({ amount: 2.5, outcome: 'hold' });
		expect(r.fromAmount).toBeNull();
		expect(rules(form({ fromAmount: '100' })).fromAmount).toEqual({ amount: 100, outcome: 'hold' });
	});

	it('holds every tip when ticked, and keeps an every-tip rule it does not show when not', () => {
		expect(rules(form({ holdEvery: true })).everyTip).toBe('hold');
		const viaApi = { ...NO_RULES, everyTip: 'no_voice' as const };
		expect(rules(formFromRules(viaApi), viaApi).everyTip).toBe('no_voice');
		expect(
			rules(form({ holdEvery: false }), { ...NO_RULES, everyTip: 'hold' }).everyTip
		).toBeNull();
	});

	it('refuses what the server would, naming the field as the form shows it', () => {
		const long = 'x'.repeat(101);
		const words = { no_voice: 'ok', hold: `fine\n\n${long}`, remove: '' };
		expect(rulesFromForm(form({ words }), NO_RULES)).toEqual({
			ok: false,
			error: 'Words · Hold, line 3: longer than 100 characters'
		});
		expect(rulesFromForm(form({ minAmount: 'ten' }), NO_RULES)).toEqual({
			ok: false,
			error: 'Minimum amount: not a number'
		});
		expect(rulesFromForm(form({ fromAmount: '-1' }), NO_RULES)).toEqual({
			ok: false,
			error: 'Hold from: below 0'
		});
	});

	it("names the server's refusal of an entry by its list and line", () => {
		const made = rulesFromForm(
			form({
				words: { no_voice: 'a\nb', hold: '\nc\nd', remove: '' },
				names: { no_voice: '', hold: '', remove: 'x\n\ny' }
			}),
			NO_RULES
		);
		if (!made.ok) throw new Error(made.error);
		// words: a, b (No voice 1, 2), c, d (Hold 2, 3); names: x, y (Remove 1, 3).
		expect(describeRefusal('words.3.text: empty', made.origins)).toBe(
			'Words · Hold, line 3: empty'
		);
		expect(describeRefusal('names.1.text: too long', made.origins)).toBe(
			'Names · Remove, line 3: too long'
		);
		expect(describeRefusal('minAmount.amount: below 0', made.origins)).toBe(
			'Minimum amount: below 0'
		);
		expect(describeRefusal('something else went wrong', made.origins)).toBe(
			'something else went wrong'
		);
	});

	it('tells a real edit from one that changes no rule (spaces, a blank line)', () => {
		const base = formFromRules(SAVED);
		const spaced = { ...base, words: { ...base.words, hold: ' free money \n' } };
		expect(sameRules(spaced, base, SAVED)).toBe(true);
		const edited = { ...base, words: { ...base.words, hold: 'free money\nscam' } };
		expect(sameRules(edited, base, SAVED)).toBe(false);
	});
});

const VIDEOS: ModerationRules = {
	...NO_RULES,
	videos: {
		// In the form's order (Hold's lines, then Remove's), so a save gives them back as they are.
		channels: [
			{ text: 'Loud Music', outcome: 'hold' },
			{ text: '@SpamChannel', outcome: 'remove' }
		],
		links: [{ text: 'example.com', outcome: 'hold' }],
		words: [
			{ text: 'jumpscare', outcome: 'hold' },
			{ text: 'gore', outcome: 'remove' }
		],
		maxSeconds: { seconds: 600, outcome: 'hold' },
		every: null,
		fromAmount: { amount: 20, outcome: 'hold' }
	}
};

function videoForm(edit: Partial<RulesForm['videos']> = {}): RulesForm {
	const f = form();
	return { ...f, videos: { ...f.videos, ...edit } };
}

describe("the rules form's videos", () => {
	it('shows saved video rules as a Hold and a Remove list each, and the choices as set', () => {
		const v = formFromRules(VIDEOS).videos;
		expect(v).toEqual({
			channels: { hold: 'Loud Music', remove: '@SpamChannel' },
			links: { hold: 'example.com', remove: '' },
			words: { hold: 'jumpscare', remove: 'gore' },
			maxLength: '10:00',
			maxOutcome: 'hold',
			holdEvery: false,
			fromAmount: '20'
		});
	});

	it('saves what the form shows, and a form with no edit is no change at all', () => {
		const back = rules(formFromRules(VIDEOS), VIDEOS);
		expect(formFromRules(back)).toEqual(formFromRules(VIDEOS));
		expect(ModerationRules.safeParse(back).success).toBe(true);
		const f = formFromRules(VIDEOS);
		expect(sameRules(f, formFromRules(VIDEOS), VIDEOS)).toBe(true);
		// The tips' rules are untouched by an edit of the videos', and the other way round.
		const edited = { ...f, videos: { ...f.videos, holdEvery: true } };
		expect(sameRules(edited, f, VIDEOS)).toBe(false);
		const saved = rules(edited, VIDEOS);
		expect(saved.videos).toEqual({ ...VIDEOS.videos, every: 'hold' });
		expect({ ...saved, videos: VIDEOS.videos }).toEqual(VIDEOS);
		const tipsEdited = rules({ ...f, words: { ...f.words, hold: 'scam' } }, VIDEOS);
		expect(tipsEdited.videos).toEqual(VIDEOS.videos);
	});

	it('reads the longest video as seconds or m:ss, with its outcome', () => {
		expect(rules(videoForm({ maxLength: '90' })).videos.maxSeconds).toEqual({
			seconds: 90,
			outcome: 'hold'
		});
		expect(
			rules(videoForm({ maxLength: ' 5:00 ', maxOutcome: 'remove' })).videos.maxSeconds
		).toEqual({
			seconds: 300,
			outcome: 'remove'
		});
		expect(rules(videoForm({ maxLength: '1:02:03' })).videos.maxSeconds?.seconds).toBe(3723);
		expect(rules(videoForm({ maxLength: '' })).videos.maxSeconds).toBeNull();
		for (const [typed, why] of [
			['ten', 'not m:ss or seconds'],
			['1:75', 'not m:ss or seconds'],
			['90.5', 'not m:ss or seconds'],
			['0', 'below 1 second'],
			['25:00:00', 'above 86400 seconds (24 hours)']
		])
			expect(rulesFromForm(videoForm({ maxLength: typed }), NO_RULES)).toEqual({
				ok: false,
				error: `Videos · Longest video: ${why}`
			});
	});

	it('holds every video when ticked, and keeps a Remove every video it does not show', () => {
		expect(rules(videoForm({ holdEvery: true })).videos.every).toBe('hold');
		const viaApi = { ...NO_RULES, videos: { ...NO_RULES.videos, every: 'remove' as const } };
		expect(rules(formFromRules(viaApi), viaApi).videos.every).toBe('remove');
		expect(rules(videoForm({ fromAmount: '12,5' })).videos.fromAmount).toEqual({
			amount: 12.5,
			outcome: 'hold'
		});
		expect(rulesFromForm(videoForm({ fromAmount: 'lots' }), NO_RULES)).toEqual({
			ok: false,
			error: 'Videos · Hold videos from: not a number'
		});
	});

	it('refuses a text too long by its list and line', () => {
		const channels = { hold: `ok\n${'x'.repeat(101)}`, remove: '' };
		expect(rulesFromForm(videoForm({ channels }), NO_RULES)).toEqual({
			ok: false,
			error: 'Videos · Channels · Hold, line 2: longer than 100 characters'
		});
	});

	it("names the server's refusal of a video rule in the form's terms", () => {
		const made = rulesFromForm(
			videoForm({
				channels: { hold: 'a\n\nb', remove: 'c' },
				links: { hold: '', remove: 'x.example\ny.example' },
				words: { hold: 'w', remove: '' }
			}),
			NO_RULES
		);
		if (!made.ok) throw new Error(made.error);
		// channels: a, b (Hold 1, 3), c (Remove 1); links: x, y (Remove 1, 2); words: w (Hold 1).
		expect(describeRefusal('videos.channels.1.text: empty', made.origins)).toBe(
			'Videos · Channels · Hold, line 3: empty'
		);
		expect(describeRefusal('videos.channels.2.text: empty', made.origins)).toBe(
			'Videos · Channels · Remove, line 1: empty'
		);
		expect(describeRefusal('videos.links.1.outcome: bad', made.origins)).toBe(
			'Videos · Links · Remove, line 2: bad'
		);
		expect(describeRefusal('videos.words.0.text: too long', made.origins)).toBe(
			'Videos · Title words · Hold, line 1: too long'
		);
		expect(describeRefusal('videos.maxSeconds.seconds: below 1', made.origins)).toBe(
			'Videos · Longest video: below 1'
		);
		expect(describeRefusal('videos.fromAmount.amount: above 1000000', made.origins)).toBe(
			'Videos · Hold videos from: above 1000000'
		);
		expect(describeRefusal('videos.channels: more than 1000 channels', made.origins)).toBe(
			'Videos · Channels: more than 1000 channels'
		);
		// Several problems at once, each in the form's terms.
		expect(
			describeRefusal('videos.every: bad value; minAmount.amount: below 0', made.origins)
		).toBe('Videos · Hold every video: bad value; Minimum amount: below 0');
	});
});
