// The dock's counter boxes (Counters.svelte): a new counter's name, and the value typed to Set or
// to start at, checked as the upstream checks them (src/contract/control-bodies.ts), so that a
// button that cannot send is disabled with its reason beside it. Pure.
import { COUNTER_NAME } from '../../src/contract/common.ts';
import { CounterSetBody } from '../../src/contract/control-bodies.ts';

/** A whole number as typed: an optional minus and digits, nothing else (no 1e3, no 2.0). */
const WHOLE = /^[-−]?\d+$/;

export const VALUE_PROBLEM = 'a whole number from −1,000,000,000 to 1,000,000,000';
export const NAME_PROBLEM = 'use 1 to 64 of a-z, 0-9, _ and - (lowercase, no spaces)';

/**
 * A value box as typed: empty (nothing to send), its number, or what is wrong with it.
 */
export type TypedValue = { empty: true } | { value: number } | { problem: string };

export function typedValue(typed: string | undefined): TypedValue {
	const text = (typed ?? '').trim();
	if (text === '') return { empty: true };
	const value = WHOLE.test(text) ? Number(text.replace('−', '-')) : NaN;
	if (!CounterSetBody.shape.value.safeParse(value).success) return { problem: VALUE_PROBLEM };
	return { value };
}

/** What is wrong with a new counter's name; null when nothing is (empty: nothing typed yet). */
export function nameProblem(name: string): string | null {
	return name === '' || COUNTER_NAME.test(name) ? null : NAME_PROBLEM;
}
