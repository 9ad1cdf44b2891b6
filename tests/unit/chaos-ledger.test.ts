// Self-tests of the chaos ledger (tests/chaos/ledger.ts): fed a synthetic simulator log and play
// records with one known fault each, it must fail with that fault named; fed a clean one, pass.
import { describe, expect, it } from 'vitest';
import type { LifeSpan, PlayRecord } from '../chaos/consumers.ts';
import { checkLedger, type LedgerInput } from '../chaos/ledger.ts';
import type { LogEntry } from '../../src/sim/log.ts';

class Script {
	log: LogEntry[] = [];
	plays: PlayRecord[] = [];
	private seq = 0;
	ev(t: number, type: string, order_id?: string): this {
		this.log.push({ seq: ++this.seq, t, kind: 'event', id: `evt_${this.seq}`, type, order_id });
		return this;
	}
	audio(t: number, orderId: string, status = 200): this {
		this.log.push({
			seq: ++this.seq,
			t,
			kind: 'asset',
			method: 'GET',
			path: `/audio/${orderId}.wav`,
			status
		});
		return this;
	}
	play(
		orderId: string,
		life: string,
		startedAt: number,
		endedAt: number,
		how: PlayRecord['how'] = 'ended',
		queue: 'tts' | 'media' = 'tts'
	): this {
		this.plays.push({ queue, orderId, life, mode: 'normal', startedAt, endedAt, how });
		return this;
	}
	/** One tip queued at t, claimed, played and finished by `life`. */
	played(orderId: string, t: number, life = 'A#1'): this {
		return this.ev(t, 'tip.created', orderId)
			.ev(t + 10, 'queue.tts.started', orderId)
			.audio(t + 12, orderId)
			.play(orderId, life, t + 15, t + 100)
			.ev(t + 110, 'queue.tts.finished', orderId);
	}
}

const lives: LifeSpan[] = [{ life: 'A#1', startedAt: 0, endedAt: null }];

function check(s: Script, extra: Partial<LedgerInput> = {}) {
	return checkLedger({
		log: s.log,
		plays: s.plays,
		lives,
		allRecorded: true,
		claimLimitMs: () => 5_000,
		slackMs: 1_000,
		overlapGraceMs: 200,
		endAt: 100_000,
		drained: true,
		remaining: { tts: [], media: [] },
		...extra
	});
}

describe('the chaos ledger', () => {
	it('passes a clean run and counts its outcomes', () => {
		const s = new Script().played('t1', 1000).played('t2', 2000);
		s.ev(3000, 'tip.created', 't3').ev(3100, 'queue.tts.skipped', 't3');
		const r = check(s);
		expect(r.violations).toEqual([]);
		expect(r.ok).toBe(true);
		expect(r.summary.tts).toMatchObject({ finished: 2, skipped: 1, plays: 2 });
	});

	it('fails an item finished twice', () => {
		const s = new Script().played('t1', 1000);
		s.ev(1200, 'queue.tts.started', 't1').ev(1300, 'queue.tts.finished', 't1');
		const r = check(s);
		expect(r.ok).toBe(false);
		expect(r.violations.join('\n')).toMatch(/t1: finished 2 times/);
	});

	it('fails an item finished without being played', () => {
		const s = new Script().ev(1000, 'tip.created', 't1');
		s.ev(1010, 'queue.tts.started', 't1').ev(1100, 'queue.tts.finished', 't1');
		expect(check(s).violations.join('\n')).toMatch(/t1: finished at 1100 without being played/);
		// Pages (no play records): an audio fetch before the finish is the evidence needed.
		expect(check(s, { allRecorded: false, plays: [] }).ok).toBe(false);
		s.log.splice(2, 0, {
			seq: 99,
			t: 1050,
			kind: 'asset',
			method: 'GET',
			path: '/audio/t1.wav',
			status: 200
		});
		s.log.sort((a, b) => a.t - b.t).forEach((e, i) => (e.seq = i + 1));
		expect(check(s, { allRecorded: false, plays: [] }).ok).toBe(true);
	});

	it('fails an item played to its end and then released, so that it is played again', () => {
		const s = new Script().ev(1000, 'tip.created', 't1');
		s.ev(1010, 'queue.tts.started', 't1').play('t1', 'A#1', 1015, 1100);
		s.ev(1150, 'queue.tts.released', 't1');
		s.ev(1200, 'queue.tts.started', 't1').play('t1', 'A#1', 1205, 1300);
		s.ev(1310, 'queue.tts.finished', 't1');
		const text = check(s).violations.join('\n');
		expect(text).toMatch(/then released/);
		expect(text).toMatch(/played to its end 2 times/);
	});

	it('forgives a replay after the page that played it crashed for good before finishing', () => {
		const s = new Script().ev(1000, 'tip.created', 't1');
		s.ev(1010, 'queue.tts.started', 't1').play('t1', 'B#1', 1015, 1100);
		s.ev(7000, 'queue.tts.released', 't1');
		s.ev(7010, 'queue.tts.started', 't1').play('t1', 'A#1', 7015, 7100);
		s.ev(7110, 'queue.tts.finished', 't1');
		const withCrash: LifeSpan[] = [
			...lives,
			{ life: 'B#1', startedAt: 0, endedAt: 1101, how: 'vanish' }
		];
		expect(check(s, { lives: withCrash }).violations).toEqual([]);
		// The same after a reload is not forgiven: the next life must finish it, not replay it.
		const withReload: LifeSpan[] = [
			...lives,
			{ life: 'B#1', startedAt: 0, endedAt: 1101, how: 'reload' }
		];
		expect(check(s, { lives: withReload }).ok).toBe(false);
	});

	it('does not count a play the streamer cut short or cleared away', () => {
		const s = new Script().ev(1000, 'tip.created', 't1');
		s.ev(1010, 'queue.tts.started', 't1').play('t1', 'A#1', 1015, 1100);
		s.ev(1150, 'queue.tts.cleared');
		expect(check(s).violations).toEqual([]);
		expect(check(s).summary.tts.cleared).toBe(1);
	});

	it('fails a play without a claim and two pages playing one item at once', () => {
		const s = new Script().ev(1000, 'tip.created', 't1').play('t1', 'A#1', 1005, 1100, 'stopped');
		expect(check(s).violations.join('\n')).toMatch(/without a claim/);
		const t = new Script().played('t1', 1000);
		t.play('t1', 'B#1', 1020, 1100, 'stopped');
		expect(check(t, { overlapGraceMs: 50 }).violations.join('\n')).toMatch(
			/played by A#1 and B#1 at once for 80 ms/
		);
		expect(check(t).violations.join('\n')).not.toMatch(/at once/);
	});

	it('fails a claim stuck longer than the takeover allows while a consumer was alive', () => {
		const s = new Script().ev(1000, 'tip.created', 't1');
		s.ev(1010, 'queue.tts.started', 't1').ev(9000, 'queue.tts.released', 't1');
		s.ev(9010, 'queue.tts.started', 't1').play('t1', 'A#1', 9015, 9100);
		s.ev(9110, 'queue.tts.finished', 't1');
		expect(check(s).violations.join('\n')).toMatch(/held 7990 ms .* more than the 6000 ms/);
		// Nobody alive to take it over: not the consumers' fault.
		expect(check(s, { lives: [{ life: 'A#1', startedAt: 8000, endedAt: null }] }).ok).toBe(true);
	});

	it('fails an item still claimed, or still queued and never tried, after the drain', () => {
		const s = new Script().ev(1000, 'tip.created', 't1').ev(1010, 'queue.tts.started', 't1');
		expect(check(s, { endAt: 2000 }).violations.join('\n')).toMatch(/still claimed/);
		const q = new Script().ev(1000, 'tip.created', 't2');
		expect(check(q, { remaining: { tts: ['t2'], media: [] } }).violations.join('\n')).toMatch(
			/t2: still queued after the drain/
		);
		// A video every consumer refused stays queued for the streamer: allowed.
		const m = new Script()
			.ev(1000, 'queue.media.added', 'm1')
			.ev(1010, 'queue.media.started', 'm1');
		m.play('m1', 'A#1', 1015, 1020, 'failed', 'media').ev(1030, 'queue.media.released', 'm1');
		expect(check(m, { remaining: { tts: [], media: ['m1'] } }).violations).toEqual([]);
	});
});
