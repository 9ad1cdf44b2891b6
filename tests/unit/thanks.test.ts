// The thanks posted in chat for tips read on stream (src/core/thanks.ts): what the streamer's
// template becomes, and the templates the dock refuses.
import { describe, expect, it } from 'vitest';
import { DEFAULT_THANKS } from '../../src/contract/chat.ts';
import { chatName, joinNames, renderThanks, templateProblem } from '../../src/core/thanks.ts';

describe('renderThanks', () => {
	it('thanks one tipper with the one-tip template', () => {
		expect(renderThanks(DEFAULT_THANKS, ['Ana'], '$5.00')).toBe('Thank you Ana for the $5.00 tip!');
	});

	it('thanks a burst in one message naming each tipper', () => {
		expect(renderThanks(DEFAULT_THANKS, ['A', 'B', 'C'], '$15.00')).toBe('Thanks A, B and C!');
		expect(
			renderThanks({ ...DEFAULT_THANKS, burst: '{name}: {amount} together!' }, ['A', 'B'], '$3.00')
		).toBe('A and B: $3.00 together!');
	});

	it('names the first tippers and "N others" when every name would pass 500 characters', () => {
		const names = Array.from({ length: 40 }, (_, i) => `tipper_with_a_long_name_${i}`);
		const text = renderThanks(DEFAULT_THANKS, names, '$40.00');
		expect(text.length).toBeLessThanOrEqual(500);
		expect(text).toMatch(/^Thanks tipper_with_a_long_name_0, .* and \d+ others!$/);
	});

	it('never starts with a chat command, whatever the tipper is called', () => {
		const text = renderThanks(
			{ ...DEFAULT_THANKS, template: '{name} thanks!' },
			['!ban everyone'],
			'$1'
		);
		expect(text).toBe('ban everyone thanks!');
		expect(renderThanks({ ...DEFAULT_THANKS, template: '{name}!' }, ['/me'], '$1')).toBe('me!');
	});

	it('keeps a name on one line and short', () => {
		expect(chatName('a\nb\u0007  c')).toBe('a b c');
		expect(chatName('x'.repeat(80))).toHaveLength(40);
		expect(chatName('   ')).toBe('someone');
		expect(joinNames(['A', 'B'])).toBe('A and B');
	});
});

describe('templateProblem', () => {
	it('accepts the defaults and refuses what chat would refuse', () => {
		expect(templateProblem(DEFAULT_THANKS.template)).toBeNull();
		expect(templateProblem(DEFAULT_THANKS.burst)).toBeNull();
		expect(templateProblem('  ')).toBe('empty');
		expect(templateProblem('!so {name}')).toBe('cannot start with / or !');
		expect(templateProblem('Thanks {nmae}')).toMatch(/\{nmae\} is not a placeholder/);
		expect(templateProblem('x'.repeat(201))).toMatch(/longer than 200/);
	});
});
