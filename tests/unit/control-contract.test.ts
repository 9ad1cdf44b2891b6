// The /control contract (src/contract/control.ts) against the server that serves it: every route
// is named as the table names it and has its error codes written down, and the dock's actions are
// the ones the server runs, each taking the body the contract gives it.
import { describe, expect, it } from 'vitest';
import {
	ACTION_ORDER,
	CONTROL,
	CREDENTIAL_ERRORS,
	UPSTREAM_ERRORS,
	type ActionName
} from '../../src/contract/control.ts';
import { CONTROL_ERRORS } from '../../src/contract/control-errors.ts';
import { actionBody, CONTROL_BODIES } from '../../src/contract/control-bodies.ts';
import { CONTROL_ACTIONS } from '../../src/server/control-actions.ts';

describe('the /control contract', () => {
	it('names each route as its table does, and lists the error codes of each', () => {
		for (const [name, route] of Object.entries(CONTROL)) {
			expect(route.name).toBe(name);
			expect(CONTROL_ERRORS[name as keyof typeof CONTROL]).toBeDefined();
		}
		expect(Object.keys(CONTROL_ERRORS).sort()).toEqual(Object.keys(CONTROL).sort());
		expect(Object.keys(CONTROL_BODIES).sort()).toEqual(Object.keys(CONTROL).sort());
	});

	it("lists a route's own codes apart from the credential's and the upstream's", () => {
		for (const [name, route] of Object.entries(CONTROL)) {
			const own = CONTROL_ERRORS[name as keyof typeof CONTROL];
			const shared: readonly string[] = [
				...(route.credential ? CREDENTIAL_ERRORS : []),
				...('upstream' in route && route.upstream ? UPSTREAM_ERRORS : [])
			];
			expect(
				own.filter((code) => shared.includes(code)),
				name
			).toEqual([]);
		}
	});

	it('has the actions the server runs, each with an order id exactly when the server needs one', () => {
		expect(Object.keys(ACTION_ORDER).sort()).toEqual(Object.keys(CONTROL_ACTIONS).sort());
		for (const [name, order] of Object.entries(ACTION_ORDER)) {
			expect(CONTROL_ACTIONS[name as ActionName].order, name).toBe(order);
			const { body } = actionBody(name as ActionName);
			expect(body.safeParse({ order_id: 'tip_1_a' }).success, name).toBe(order);
			expect(body.safeParse({}).success, name).toBe(!order);
		}
	});
});
