// What every /control route is (src/contract/control.ts lists them, control-chat.ts the chat's):
// its name, method, path, whether it is behind the control credential or calls the upstream, and
// its answer's schema; and the answer of an action, which most presses give.
import { z } from 'zod/mini';

export interface ControlRoute {
	/** The route's name (the client's logs name the call by it). */
	name: string;
	method: 'GET' | 'POST' | 'PUT';
	/** Under /control; each `:name` segment is a parameter (control-bodies.ts has its schema). */
	path: string;
	/** Behind the control credential: every CREDENTIAL_ERRORS code may answer it too. */
	credential: boolean;
	/** Calls the upstream: every UPSTREAM_ERRORS code may answer it too. */
	upstream?: boolean;
	answer: z.ZodMiniType;
}

// Each route a const of its own, with literal arguments only, so that a page keeps the routes it
// calls and nothing of the others (the `/*@__PURE__*/` call goes, with arguments free of effects).

/* @__NO_SIDE_EFFECTS__ */
export function route<const R extends ControlRoute>(r: R): R {
	return r;
}

/** An action's answer: `done` (the press changed something) or `already` (it was so before). */
export const ActionAnswer = /*@__PURE__*/ z.looseObject({
	outcome: z.enum(['done', 'already']),
	message: z.string()
});
export type ActionAnswer = z.infer<typeof ActionAnswer>;
