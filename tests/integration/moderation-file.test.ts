// Single mode's moderation store (src/server/moderation/store.ts, a journal of
// src/server/store/file-kept.ts): the rules and decisions
// survive a restart of the server (a new store on the same file), the first decision of a tip
// stays, a held tip is settled once, and a damaged file stops the server with its name instead of
// starting with no rules.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noVideoRules, type LiveMessage } from '../../src/contract/index.ts';
import type { Decision } from '../../src/core/moderation/decision.ts';
import { moderationFile } from '../../src/server/moderation/store.ts';
import { KeptFileError } from '../../src/server/store/file-kept.ts';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function file(): string {
	const dir = mkdtempSync(join(tmpdir(), 'moderation-'));
	dirs.push(dir);
	return join(dir, '.moderation.json');
}

const decision = (orderId: string, outcome: Decision['outcome']): Decision => ({
	orderId,
	outcome,
	rule: outcome === 'read' ? null : { kind: 'word', text: 'bad' },
	spans: [],
	by: 'rules',
	decidedAt: new Date().toISOString()
});

describe('the moderation file', () => {
	it('keeps rules and decisions across a restart, owner-only', async () => {
		const where = file();
		const first = moderationFile(where);
		await first.saveRules('single', {
			words: [{ text: 'bad', outcome: 'hold' }],
			names: [],
			links: null,
			minAmount: null,
			everyTip: null,
			fromAmount: null,
			onReject: 'remove',
			videos: noVideoRules()
		});
		await first.decide('single', [decision('tip_1_a', 'hold')]);
		expect(statSync(where).mode & 0o777).toBe(0o600);

		const again = moderationFile(where);
		expect((await again.rules('single')).version).toBe(1);
		expect((await again.rules('single')).rules.words).toEqual([{ text: 'bad', outcome: 'hold' }]);
		expect((await again.get('single', ['tip_1_a'])).get('tip_1_a')?.outcome).toBe('hold');
	});

	it('the first decision of a tip stays; a held tip is settled once and the change is pushed', async () => {
		const store = moderationFile(file());
		const heard: LiveMessage[] = [];
		store.push.subscribe('single', (m) => heard.push(m));
		await store.decide('single', [decision('tip_2_a', 'hold')]);
		const later = await store.decide('single', [decision('tip_2_a', 'read')]);
		expect(later.get('tip_2_a')?.outcome).toBe('hold');
		const approve = { ...decision('tip_2_a', 'read'), by: 'approved' as const };
		const [one, two] = await Promise.all([
			store.settle('single', 'tip_2_a', approve),
			store.settle('single', 'tip_2_a', { ...approve, outcome: 'remove', by: 'rejected' })
		]);
		expect([one?.outcome, two?.outcome]).toEqual(['read', undefined]);
		expect(heard).toEqual([{ type: 'decision', order_id: 'tip_2_a' }]);
	});

	it('a damaged file stops the server with its name and is left as it was', () => {
		const where = file();
		writeFileSync(where, '{"version": 3, "rules": {"words": "oops"');
		expect(() => moderationFile(where)).toThrow(KeptFileError);
		expect(() => moderationFile(where)).toThrow(where);
		expect(readFileSync(where, 'utf8')).toBe('{"version": 3, "rules": {"words": "oops"');
		writeFileSync(where, '{"version": 3, "rules": {"words": "oops"}, "decisions": []}');
		expect(() => moderationFile(where)).toThrow(/rules\.words: expected array/);
	});
});
