// The simulator's model under the streamer's controls (src/sim/model/): closing tipping stops
// viewers' tips but not API tips, the demo traffic sends no tip while closed, a control announces
// only a change, and a claimed item started again while paused answers already_playing.
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/contract/index.ts';
import { SimCore } from '../../src/sim/core.ts';
import { SimError } from '../../src/sim/errors.ts';
import { SimModel } from '../../src/sim/model/model.ts';
import { DemoTraffic } from '../../src/sim/traffic.ts';

function model(): { m: SimModel; events: EventEnvelope[] } {
	const events: EventEnvelope[] = [];
	const m = new SimModel({
		audioUrl: (id) => `http://sim.invalid/audio/${id}.wav`,
		sink: (e) => events.push(e)
	});
	return { m, events };
}

const viewerTip = { name: 'Ada', amount: 5, message: 'hello', paid: true };

/** The error `fn` throws (fails when it throws none). */
function thrown(fn: () => unknown): SimError {
	try {
		fn();
	} catch (err) {
		if (err instanceof SimError) return err;
		throw err;
	}
	throw new Error('expected a SimError');
}

describe('closing tipping', () => {
	it("refuses a viewer's tip with 409 tipping_closed, queues and announces nothing, until opened", () => {
		const { m, events } = model();
		m.setAccepting(false);
		const err = thrown(() => m.checkout(viewerTip));
		expect(err.status).toBe(409);
		expect(err.body()).toEqual({ error: 'tipping is closed', code: 'tipping_closed' });
		expect(m.tts.items).toEqual([]);
		expect(m.ledger).toEqual([]);
		expect(events.map((e) => e.type)).toEqual(['tipping.closed']);

		m.setAccepting(true);
		const tip = m.checkout(viewerTip);
		expect(m.tts.items.map((t) => t.order_id)).toEqual([tip.order_id]);
	});

	it('still takes a tip created through the API (not a checkout)', () => {
		const { m } = model();
		m.setAccepting(false);
		const tip = m.createTip({ ...viewerTip, source: 'api' });
		expect(m.tts.items.map((t) => t.order_id)).toEqual([tip.order_id]);
	});

	it('a viewer tip with a video queues neither the tip nor the video while closed', () => {
		const { m } = model();
		m.setAccepting(false);
		thrown(() => m.checkout({ ...viewerTip, media: { url: 'https://youtu.be/abc' } }));
		expect(m.media.items).toEqual([]);
	});

	it('the demo traffic sends no tip while tipping is closed, and tips again once open', () => {
		const core = new SimCore({ quiet: true, audioClipMs: 10 });
		core.origin = 'http://sim.invalid'; // the demo videos' URLs start with it
		try {
			const traffic = new DemoTraffic(core, 7);
			core.model.setAccepting(false);
			for (let i = 0; i < 100; i++) traffic.step();
			expect(core.model.ledger).toEqual([]);
			expect(core.model.tts.items).toEqual([]);
			// The same traffic does tip while open (the steps above were not all something else).
			core.model.setAccepting(true);
			for (let i = 0; i < 100; i++) traffic.step();
			expect(core.model.ledger.length).toBeGreaterThan(0);
		} finally {
			core.close();
		}
	});
});

describe('a control announces a change only', () => {
	it('closing twice or opening an open tipping fires one event per change', () => {
		const { m, events } = model();
		expect(m.setAccepting(true)).toBe(true);
		expect(m.setAccepting(false)).toBe(false);
		expect(m.setAccepting(false)).toBe(false);
		expect(m.accepting).toBe(false);
		m.setAccepting(true);
		expect(events.map((e) => e.type)).toEqual(['tipping.closed', 'tipping.opened']);
	});

	it('pausing a paused queue and hiding a hidden player fire nothing more', () => {
		const { m, events } = model();
		m.setPaused('tts', true);
		m.setPaused('tts', true);
		m.setPaused('media', false);
		m.mediaSetVisible(false);
		m.mediaSetVisible(false);
		m.mediaSetVisible(true);
		expect(events.map((e) => [e.type, e.data])).toEqual([
			['queue.tts.paused', { is_paused: true }],
			['queue.media.visibility', { visible: false }],
			['queue.media.visibility', { visible: true }]
		]);
	});
});

describe('starting while paused', () => {
	it('the claimed tip started again answers already_playing with its own id, others queue_paused', () => {
		const { m } = model();
		const a = m.createTip(viewerTip);
		const b = m.createTip(viewerTip);
		m.start('tts', a.order_id);
		m.setPaused('tts', true);
		const own = thrown(() => m.start('tts', a.order_id));
		expect(own.body()).toMatchObject({ code: 'already_playing', current_order_id: a.order_id });
		expect(thrown(() => m.start('tts', b.order_id)).body()).toMatchObject({
			code: 'queue_paused'
		});
		expect(m.tts.current).toBe(a.order_id);
	});
});
