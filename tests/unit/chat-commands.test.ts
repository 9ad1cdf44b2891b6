// The kit's chat commands before they act (src/core/commands.ts): the role checked again against
// the permission the streamer chose, the arguments, the held tip a name picks, a free trigger.
import { describe, expect, it } from 'vitest';
import { allowed, checkRun, freeTrigger, pickHeld } from '../../src/core/commands.ts';

describe('the permission check', () => {
	it('lets in each permission with its inclusions and nobody below it', () => {
		const roles = ['viewer', 'subscriber', 'moderator', 'broadcaster'] as const;
		const table = (['everyone', 'subscriber', 'moderator'] as const).map((p) =>
			roles.map((r) => allowed(p, r))
		);
		expect(table).toEqual([
			[true, true, true, true],
			[false, true, true, true],
			[false, false, true, true]
		]);
	});

	it('refuses a viewer running a moderator command, saying who may', () => {
		expect(checkRun('skip', 'moderator', 'viewer', '')).toEqual({
			ok: false,
			why: 'a viewer may not run it (moderator only)'
		});
		expect(checkRun('skip', 'moderator', 'broadcaster', '')).toMatchObject({ ok: true });
	});
});

describe('the arguments', () => {
	it('takes the name of approve without its @ and spaces around it', () => {
		expect(checkRun('approve', 'moderator', 'moderator', '  @Ana Maria ')).toEqual({
			ok: true,
			does: { verdict: 'approve' },
			name: 'Ana Maria'
		});
	});

	it('refuses approve or reject with no name', () => {
		for (const args of ['', '   ', '@'])
			expect(checkRun('reject', 'moderator', 'moderator', args)).toEqual({
				ok: false,
				why: 'no name given'
			});
	});

	it('refuses arguments over 100 characters, whatever the command', () => {
		expect(checkRun('pausetts', 'everyone', 'viewer', 'x'.repeat(101))).toEqual({
			ok: false,
			why: 'arguments over 100 characters'
		});
		expect(checkRun('pausetts', 'everyone', 'viewer', 'x'.repeat(100))).toMatchObject({ ok: true });
	});
});

describe('the held tip a name picks', () => {
	const held = [
		{ order_id: 'a', name: 'Ana' },
		{ order_id: 'b', name: 'Anabel' },
		{ order_id: 'c', name: 'ana' },
		{ order_id: 'd', name: 'Bob' }
	];

	it('picks the oldest tip of the tipper named, case and spacing aside', () => {
		expect(pickHeld(held, 'ANA')).toEqual({ ok: true, tip: held[0] });
		expect(pickHeld(held, ' bob ')).toEqual({ ok: true, tip: held[3] });
	});

	it('picks the one tipper whose name starts with what was typed', () => {
		expect(pickHeld(held, 'Anab')).toEqual({ ok: true, tip: held[1] });
	});

	it('picks nothing when two tippers start so, or nobody is held by that name', () => {
		expect(pickHeld([held[1], { order_id: 'e', name: 'Anatole' }], 'Ana')).toEqual({
			ok: false,
			why: '2 held tippers match Ana: type the whole name'
		});
		expect(pickHeld(held, 'Cy')).toEqual({ ok: false, why: 'nothing held for Cy' });
	});
});

describe('a free trigger', () => {
	it('numbers the taken one until a name is free, within 50 characters', () => {
		expect(freeTrigger(new Set(['skip', 'skip2']), 'skip')).toBe('skip3');
		expect(freeTrigger(new Set(), 'x'.repeat(50))).toHaveLength(50);
	});
});
