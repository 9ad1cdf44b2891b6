// The checks contract-endpoints.test.ts makes of each endpoint (contract-endpoints.endpoints.ts):
// it is in the route table, and an example parses with the route's schema.
import { expect } from 'vitest';
import type { z } from 'zod/mini';
import { matchRoute, parseWith, type Route } from '../../src/contract/index.ts';

export function mustMatch(
	method: string,
	path: string
): { route: Route; params: Record<string, string> } {
	const match = matchRoute(method, path);
	if (!match) throw new Error(`${method} ${path} is not in the route table`);
	return match;
}

export function expectParses(
	schema: z.ZodMiniType | undefined,
	value: unknown,
	what: string
): unknown {
	expect(schema, `${what}: no schema`).toBeDefined();
	const result = parseWith(schema!, value);
	if (!result.ok) throw new Error(`${what} does not parse: ${result.error}`);
	return result.value;
}
