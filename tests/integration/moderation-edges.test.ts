// Moderation through the token endpoint, its edges: no answer a page can get through
// /api carries a held tip's message or audio (not the release's either), a tip that may not be
// played never keeps the queue's one claim when the give-back fails once, and a long word list saves.
import { describe, expect, it } from 'vitest';
import { readyTip, until } from '../fixtures/sim.ts';
import { pageCall, rig, withRules } from './control.setup.ts';

const page = pageCall;

describe('the answers a page gets carry no held message', () => {
	it('a release of a held tip answers without its message or audio', async () => {
		const r = await rig();
		await withRules(r, { words: [{ text: 'secretword', outcome: 'hold' }] });
		const tip = await readyTip(r.sim, { message: 'the secretword is here' });
		// Decided now (held): the page's queue read hides it.
		const q = await page(r, 'GET', '/api/tts/queue');
		expect(q.body.items[0].moderation.outcome).toBe('hold');
		// Any page may give back a claim (a takeover does), and the upstream answers with the tip.
		const released = await page(r, 'POST', `/api/tts/${tip.order_id}/release`);
		expect(released.status).toBe(200);
		const text = JSON.stringify(released.body);
		expect(text).not.toContain('secretword');
		expect(text).not.toContain(tip.tts_url);
		expect(released.body.tip.moderation).toEqual({ outcome: 'hold', message: 'hidden' });
	});
});

describe('a tip that may not be played keeps no claim', () => {
	it('its claim is given back again when the first release is refused', async () => {
		const r = await rig();
		await withRules(r, { everyTip: 'hold' });
		const tip = await readyTip(r.sim);
		// The start nobody had read it for goes out and claims it; its give-back fails once.
		r.sim.control.failHttp({ status: 502, count: 1, match: `/tts/${tip.order_id}/release` });
		const started = await page(r, 'POST', `/api/tts/${tip.order_id}/start`);
		expect(started.body.code).toBe('held');
		// Kept, the claim would stop every copy until a takeover (90 s): it is asked again.
		await until(() => r.sim.control.model.tts.current === null, 4000);
	});
});

describe('the rules', () => {
	it('a word list as long as the rules allow is saved', async () => {
		const r = await rig();
		const words = Array.from({ length: 1000 }, (_, i) => ({
			text: `blockedword${i}`,
			outcome: 'no_voice'
		}));
		const saved = await r.dock('PUT', '/control/moderation', { body: { words } });
		expect(saved.status).toBe(200);
		expect(saved.body.rules.words).toHaveLength(1000);
	});
});
