// The dock's moderation state (dock.svelte.ts with moderation.svelte.ts) with a fake control client
// and a fake push channel: what each live message makes it read, tips and videos the token endpoint
// could not decide read again, the Rules form's unsaved edits kept from a save made elsewhere, a
// refused save named as the form shows it, and Approve, Reject and Reveal of a held tip, Approve
// and Reject of a held video, with their outcomes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
	LiveMessage,
	ModerationRules,
	QueueMediaItem,
	QueueTip,
	StoredRules,
	TipModeration
} from '../../src/contract/index.ts';
import type { SendResult } from '../../widgets/dock/actions.ts';
import type { ControlClient, ReadResult } from '../../widgets/dock/control-client.ts';
import type { LiveState } from '../../widgets/dock/dock-live.ts';
import { DockState } from '../../widgets/dock/dock.svelte.ts';
import type { Snapshot } from '../../widgets/dock/dock-model.ts';
import { NO_RULES } from '../../widgets/dock/rules-form.ts';
import { queueMedia, queueTip } from './contract-examples.ts';

const HOLD: TipModeration = {
	outcome: 'hold',
	message: 'masked',
	rule: { kind: 'word', text: 'scam' },
	by: 'rules'
};

function tip(n: number, moderation: TipModeration): QueueTip {
	return {
		...queueTip(),
		order_id: `tip_${n}_aa`,
		name: `Viewer ${n}`,
		platform: null,
		platform_user_id: null,
		message: '••••',
		moderation
	};
}

const HOLD_VIDEO: TipModeration = {
	outcome: 'hold',
	message: 'shown',
	rule: { kind: 'every_video' },
	by: 'rules'
};

/** A video with the order id of tip `n` (a tip's video has its tip's). */
function video(n: number, moderation: TipModeration): QueueMediaItem {
	return { ...queueMedia(), order_id: `tip_${n}_aa`, donor_name: `Viewer ${n}`, moderation };
}

const ok = (body: unknown): SendResult => ({ ok: true, status: 200, body });

function setup(withLive = true) {
	const server = {
		tts: [] as QueueTip[],
		media: [] as QueueMediaItem[],
		rules: { rules: NO_RULES, version: 0 } as StoredRules
	};
	const reads: (Snapshot | 'rules')[] = [];
	const snapshot = (s: Snapshot): ReadResult => {
		const queue = { is_paused: false, currently_playing: false, current_order_id: null };
		switch (s) {
			case 'tts':
				return { ok: true, read: { snapshot: s, body: { ...queue, items: [...server.tts] } } };
			case 'media':
				return {
					ok: true,
					read: { snapshot: s, body: { ...queue, visible: true, items: [...server.media] } }
				};
			case 'ttsHistory':
				return { ok: true, read: { snapshot: s, body: { tips: [] } } };
			case 'mediaHistory':
				return { ok: true, read: { snapshot: s, body: { media: [] } } };
			case 'tipping':
				return { ok: true, read: { snapshot: s, body: { accepting: true } } };
		}
	};
	const client = {
		onRefused: null,
		api: { request: vi.fn(async () => ({ ok: false, kind: 'network', error: 'offline' })) },
		mintToken: vi.fn(async () => ({ ok: false, kind: 'network', error: 'offline' })),
		read: vi.fn(async (s: Snapshot) => {
			reads.push(s);
			return snapshot(s);
		}),
		rules: vi.fn(async () => {
			reads.push('rules');
			return { ok: true, stored: server.rules };
		}),
		saveRules: vi.fn(),
		settle: vi.fn<(...args: unknown[]) => Promise<SendResult>>(),
		message: vi.fn(),
		act: vi.fn(),
		// The Counters and Tip goal sections' reads (show.svelte.ts): not what these tests are about.
		readCounters: vi.fn(async () => ({ ok: false, kind: 'network', error: 'offline' })),
		readOverlays: vi.fn(async () => ({ ok: false, kind: 'network', error: 'offline' })),
		// The Chat section reads on hello too (dock-chat.test.ts tests it).
		chat: vi.fn(async () => ({ ok: false, kind: 'network', error: 'offline' }))
	};
	let channel: { send: (m: LiveMessage) => void; state: (s: LiveState) => void } | null = null;
	const closeLive = vi.fn();
	const dock = new DockState({
		client: client as unknown as ControlClient,
		...(withLive && {
			live: (onMessage: (m: LiveMessage) => void, onState: (s: LiveState) => void) => {
				channel = { send: onMessage, state: onState };
				return closeLive;
			}
		})
	});
	return {
		server,
		client,
		dock,
		reads,
		closeLive,
		live: () => channel!
	};
}

/** The dock started, connected, its first reads done. */
async function started() {
	const t = setup();
	t.dock.listen();
	t.live().state('open');
	t.live().send({ type: 'hello' });
	t.dock.resync();
	await vi.advanceTimersByTimeAsync(0);
	t.reads.length = 0;
	return t;
}

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

describe('the push channel in the dock', () => {
	it('reads the queue for a decision, the rules for a save, both after a reconnect', async () => {
		const t = await started();
		t.server.tts = [tip(2, HOLD)];
		t.live().send({ type: 'decision', order_id: 'tip_1_aa' });
		await vi.advanceTimersByTimeAsync(0);
		// A tip's decision may have settled its video too.
		expect(t.reads).toEqual(['tts', 'media']);
		expect(t.dock.model.tts?.items.map((i) => i.order_id)).toEqual(['tip_2_aa']);

		t.reads.length = 0;
		t.server.media = [video(3, HOLD_VIDEO)];
		t.live().send({ type: 'decision', order_id: 'tip_3_aa', queue: 'media' });
		await vi.advanceTimersByTimeAsync(0);
		expect(t.reads).toEqual(['media']);
		expect(t.dock.model.media?.items.map((i) => i.order_id)).toEqual(['tip_3_aa']);

		t.reads.length = 0;
		t.live().send({ type: 'rules', version: 1 });
		await vi.advanceTimersByTimeAsync(0);
		expect(t.reads).toEqual(['rules']);

		t.reads.length = 0;
		t.live().state('down');
		expect(t.dock.live).toBe('down');
		t.live().send({ type: 'hello' });
		await vi.advanceTimersByTimeAsync(0);
		expect(t.reads.sort()).toEqual(['media', 'rules', 'tts', 'ttsHistory']);
		t.dock.close();
		expect(t.closeLive).toHaveBeenCalledOnce();
	});

	it('reads the rules once at the start without a push channel, and on its hello with one', async () => {
		const alone = setup(false);
		alone.dock.listen();
		await vi.advanceTimersByTimeAsync(0);
		expect(alone.reads).toEqual(['rules']);
		expect(alone.dock.live).toBeNull();
		const t = setup();
		t.dock.listen();
		expect(t.dock.live).toBe('connecting');
		await vi.advanceTimersByTimeAsync(0);
		expect(t.reads).toEqual([]);
		t.live().send({ type: 'hello' });
		await vi.advanceTimersByTimeAsync(0);
		expect(t.reads.sort()).toEqual(['media', 'rules', 'tts', 'ttsHistory']);
		// A channel that cannot connect: the rules are read all the same.
		const down = setup();
		down.dock.listen();
		down.live().state('down');
		await vi.advanceTimersByTimeAsync(0);
		expect(down.reads).toEqual(['rules']);
	});

	it('reads the queue again, later and later, while tips wait for a decision, and stops after', async () => {
		const t = setup();
		t.server.tts = [tip(1, { outcome: 'pending', message: 'hidden' })];
		t.dock.listen();
		t.dock.resync();
		await vi.advanceTimersByTimeAsync(0);
		t.reads.length = 0;
		await vi.advanceTimersByTimeAsync(1000);
		expect(t.reads.filter((r) => r === 'tts')).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(2000);
		expect(t.reads.filter((r) => r === 'tts')).toHaveLength(2);
		t.server.tts = [tip(1, HOLD)];
		await vi.advanceTimersByTimeAsync(60_000);
		expect(t.reads.filter((r) => r === 'tts')).toHaveLength(3);
		expect(t.dock.model.tts?.items[0].moderation?.outcome).toBe('hold');
	});
});

describe('the Rules form', () => {
	const WORDS: ModerationRules = { ...NO_RULES, words: [{ text: 'scam', outcome: 'hold' }] };

	it('keeps unsaved edits when another dock saves, and says so; Reload rules takes theirs', async () => {
		const t = await started();
		const mod = t.dock.moderation;
		expect(mod.stored?.version).toBe(0);
		mod.draft.words.hold = 'mine';
		expect(mod.dirty).toBe(true);

		t.server.rules = { rules: WORDS, version: 1 };
		t.live().send({ type: 'rules', version: 1 });
		await vi.advanceTimersByTimeAsync(0);
		expect(mod.draft.words.hold).toBe('mine');
		expect(mod.newer?.version).toBe(1);

		mod.reloadRules();
		expect(mod.draft.words.hold).toBe('scam');
		expect(mod.dirty).toBe(false);
		expect(mod.newer).toBeNull();
	});

	it('takes a save made elsewhere at once when it has no edits of its own', async () => {
		const t = await started();
		t.server.rules = { rules: WORDS, version: 4 };
		t.live().send({ type: 'rules', version: 4 });
		await vi.advanceTimersByTimeAsync(0);
		expect(t.dock.moderation.draft.words.hold).toBe('scam');
		expect(t.dock.moderation.newer).toBeNull();
	});

	it("saves the draft, and shows the server's refusal by list and line", async () => {
		const t = await started();
		const mod = t.dock.moderation;
		mod.draft.words.hold = 'scam';
		t.client.saveRules.mockResolvedValueOnce({
			ok: false,
			kind: 'http',
			status: 400,
			code: 'bad_rules',
			body: { error: 'words.0.text: contains a forbidden character', code: 'bad_rules' }
		});
		await mod.save();
		expect(mod.saveState).toEqual({
			kind: 'refused',
			text: 'Words · Hold, line 1: contains a forbidden character'
		});
		expect(mod.dirty).toBe(true);

		t.client.saveRules.mockResolvedValueOnce({ ok: true, stored: { rules: WORDS, version: 1 } });
		await mod.save();
		expect(t.client.saveRules).toHaveBeenLastCalledWith(WORDS);
		expect(mod.saveState).toEqual({ kind: 'done', text: 'saved' });
		expect(mod.dirty).toBe(false);
		expect(mod.stored?.version).toBe(1);
	});
});

describe('a held tip', () => {
	it('Approve says so naming the tip, and the dock reads both queues for what they are now', async () => {
		const t = await started();
		const held = tip(2, HOLD);
		t.client.settle.mockResolvedValueOnce(
			ok({ outcome: 'done', decision: { outcome: 'read', message: 'shown' } })
		);
		await t.dock.moderation.settle('approve', { queue: 'tts', item: held });
		expect(t.client.settle).toHaveBeenCalledWith('approve', 'tip_2_aa', 'tts');
		expect(t.dock.outcomes.held).toMatchObject({
			kind: 'done',
			text: 'approved: Viewer 2’s tip will be read'
		});
		await vi.advanceTimersByTimeAsync(0);
		// Its video, held only with it, is settled with it.
		expect(t.reads).toEqual(['tts', 'media']);
		// The outcome fades; a refusal would stay.
		await vi.advanceTimersByTimeAsync(10_000);
		expect(t.dock.outcomes.held).toBeUndefined();
	});

	it('Reject says what became of it; a second dock is told it was already decided', async () => {
		const t = await started();
		const held = { queue: 'tts' as const, item: tip(2, HOLD) };
		t.client.settle.mockResolvedValueOnce(
			ok({ outcome: 'done', decision: { outcome: 'remove', message: 'hidden' } })
		);
		await t.dock.moderation.settle('reject', held);
		expect(t.dock.outcomes.held?.text).toBe('rejected: Viewer 2’s tip is removed');
		t.client.settle.mockResolvedValueOnce(ok({ outcome: 'already', decision: HOLD }));
		await t.dock.moderation.settle('approve', held);
		expect(t.dock.outcomes.held).toMatchObject({
			kind: 'already',
			text: 'already decided: Viewer 2’s tip is no longer held'
		});
		t.client.settle.mockResolvedValueOnce({ ok: false, kind: 'network', error: 'offline' });
		await t.dock.moderation.settle('reject', held);
		expect(t.dock.outcomes.held).toMatchObject({ kind: 'unreachable' });
		expect(t.dock.outcomes.held?.text).toMatch(/^Reject Viewer 2’s tip: .*try again$/);
	});

	it('Reveal shows the message as written until Hide', async () => {
		const t = await started();
		t.client.message.mockResolvedValueOnce({ ok: true, message: 'a scam for you' });
		await t.dock.moderation.reveal('tip_2_aa');
		expect(t.dock.moderation.revealed).toEqual({ tip_2_aa: 'a scam for you' });
		t.dock.moderation.hide('tip_2_aa');
		expect(t.dock.moderation.revealed).toEqual({});
	});
});

describe('a held video', () => {
	it('Approve and Reject name the video and its queue, and the dock reads the media queue', async () => {
		const t = await started();
		const held = { queue: 'media' as const, item: video(4, HOLD_VIDEO) };
		t.client.settle.mockResolvedValueOnce(
			ok({ outcome: 'done', decision: { outcome: 'read', message: 'shown' } })
		);
		await t.dock.moderation.settle('approve', held);
		expect(t.client.settle).toHaveBeenCalledWith('approve', 'tip_4_aa', 'media');
		expect(t.dock.outcomes.held?.text).toBe('approved: Viewer 4’s video will play');
		await vi.advanceTimersByTimeAsync(0);
		expect(t.reads).toEqual(['media']);

		t.client.settle.mockResolvedValueOnce(
			ok({ outcome: 'done', decision: { outcome: 'remove', message: 'shown' } })
		);
		await t.dock.moderation.settle('reject', held);
		expect(t.dock.outcomes.held?.text).toBe('rejected: Viewer 4’s video is removed');
		t.client.settle.mockResolvedValueOnce(ok({ outcome: 'already', decision: HOLD_VIDEO }));
		await t.dock.moderation.settle('reject', held);
		expect(t.dock.outcomes.held?.text).toBe('already decided: Viewer 4’s video is no longer held');
	});

	it('is busy apart from its tip of the same order id', async () => {
		const t = await started();
		let answer: (r: SendResult) => void = () => {};
		t.client.settle.mockReturnValueOnce(new Promise((done) => (answer = done)));
		const pressing = t.dock.moderation.settle('approve', {
			queue: 'media',
			item: video(2, HOLD_VIDEO)
		});
		expect(t.dock.busy).toMatchObject({ 'approve:media:tip_2_aa': true });
		expect(t.dock.busy['approve:tip_2_aa']).toBeUndefined();
		answer(ok({ outcome: 'done', decision: { outcome: 'read', message: 'shown' } }));
		await pressing;
		expect(t.dock.busy['approve:media:tip_2_aa']).toBe(false);
	});

	it('reads the media queue again, later and later, while videos wait for a decision', async () => {
		const t = setup();
		t.server.media = [video(1, { outcome: 'pending', message: 'shown' })];
		t.dock.listen();
		t.dock.resync();
		await vi.advanceTimersByTimeAsync(0);
		t.reads.length = 0;
		await vi.advanceTimersByTimeAsync(1000);
		expect(t.reads).toEqual(['media']);
		await vi.advanceTimersByTimeAsync(2000);
		expect(t.reads).toEqual(['media', 'media']);
		t.server.media = [video(1, HOLD_VIDEO)];
		await vi.advanceTimersByTimeAsync(60_000);
		expect(t.reads).toEqual(['media', 'media', 'media']);
		expect(t.dock.model.media?.items[0].moderation?.outcome).toBe('hold');
	});
});
