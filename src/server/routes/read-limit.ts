// Reads over their share are refused before they cost the upstream: a GET of /api that goes
// upstream, when its overlay key (in hosted mode, its streamer) or its client address has no
// allowance left, is answered 429 with Retry-After, which the pages wait out (src/client/api.ts).
// The allowance is taken by routes/proxy.ts as the read goes upstream (`c.var.read.charge`): a
// read the streamer's live view answers costs the upstream nothing and is not counted. Claims and
// the dock's controls are never limited here: only reads are, and the handoff token a page mints
// to connect is not (the upstream budget's queue paces it). The allowance is this process's: behind
// a load balancer each instance keeps its own (the upstream budget keeps the claims' share across
// instances).
//
// Read tickets (read-tickets.ts) are handed out and taken here: in X-Read-Ticket, two on a
// successful POST /token, one on the answer to any other call of /api than a GET, and one on the
// answer to a read that presented a fresh one. A queue read a page's claim runner makes with a
// fresh ticket of its streamer is not counted in the allowance and is sent upstream as a claim
// (routes/proxy.ts reads `readPriority`), and never answered from the view (`read.claim`): a claim
// must see the upstream's truth. A ticket that is anything but fresh changes nothing.
import type { Context } from 'hono';
import { matchRoute, type RouteName } from '../../contract/index.ts';
import { ReadAllowance } from '../../core/read-allowance.ts';
import type { CallPriority } from '../../core/rate-budget.ts';
import type { AppOptions } from '../app-options.ts';
import { HttpError } from '../http-error.ts';
import { ReadTickets } from '../read-tickets.ts';
import type { RequireKey } from './overlay-key.ts';

declare module 'hono' {
	interface ContextVariableMap {
		/** Set on a read with a fresh ticket: the priority it is sent upstream with. */
		readPriority?: CallPriority;
		/** Set on a read of /api: what routes/proxy.ts does with it. */
		read?: PageRead;
	}
}

type ReadLimitOptions = Pick<
	AppOptions,
	'clientAddress' | 'readLimits' | 'readRefused' | 'readTicketKey'
>;

/** A page's read of /api, as the route that answers it sees it. */
export interface PageRead {
	/** A claim runner's queue read with a fresh ticket: to the upstream, never from the view. */
	claim: boolean;
	/** The read goes upstream: takes its allowance (nothing for a claim), or throws the 429. */
	charge(): void;
}

/** The header that carries read tickets both ways. */
const TICKET_HEADER = 'X-Read-Ticket';
/** The reads a claim runner makes before it claims: what a ticket lets go first. */
const TICKETED: ReadonlySet<RouteName> = new Set<RouteName>(['ttsQueue', 'mediaQueue']);

/**
 * `requireKey` that also refuses, once the key is known good, a read over its allowance (unless a
 * ticket lets it go first), and hands out read tickets.
 */
export function limitReads(
	requireKey: RequireKey,
	opts: ReadLimitOptions,
	now: () => number = Date.now
): RequireKey {
	const allowance = new ReadAllowance(opts.readLimits);
	const tickets = new ReadTickets(opts.readTicketKey, { now });
	return (c, next) =>
		requireKey(c, async () => {
			const scope = c.var.caller.streamer;
			let issue = issuedFor(c);
			let refused = false;
			if (isRead(c)) {
				// Decided once, here; a ticket that is anything but fresh leaves a plain read.
				const fresh = tickets.redeem(scope, c.req.header(TICKET_HEADER));
				if (fresh) issue = 1;
				const claim = fresh && ticketed(c);
				if (claim && tickets.takePriority(scope)) c.set('readPriority', 'claim');
				let charged = c.var.readPriority === 'claim';
				const charge = () => {
					if (charged) return;
					charged = true;
					const verdict = allowance.take(scope, opts.clientAddress?.(c) ?? 'local', now());
					if (verdict.ok) return;
					refused = true;
					opts.readRefused?.(scope, verdict.by);
					throw tooManyReads(verdict);
				};
				c.set('read', { claim, charge });
			}
			await next();
			// A read refused for its allowance gets no ticket back (it used the one it presented).
			if (refused) return;
			if (issue && (c.req.method !== 'POST' || c.req.path !== '/token' || c.res.ok))
				setTicket(c, Array.from({ length: issue }, () => tickets.issue(scope)).join(','));
		});
}

function tooManyReads(verdict: { by: 'key' | 'address'; retryAfterS: number }): HttpError {
	return new HttpError(
		429,
		'too_many_reads',
		`too many reads ${verdict.by === 'key' ? 'with this overlay key' : 'from this address'}; wait ${verdict.retryAfterS} s`,
		{ 'Retry-After': String(verdict.retryAfterS) }
	);
}

/** A read through the token endpoint: a forwarded GET (writes are claims and controls). */
function isRead(c: Context): boolean {
	return c.req.method === 'GET' && c.req.path.startsWith('/api/');
}

/** How many tickets the answer to a call gets for what it is: POST /token 2, a write of /api 1. */
function issuedFor(c: Context): number {
	const { method, path } = c.req;
	if (method === 'POST' && path === '/token') return 2;
	return method !== 'GET' && method !== 'HEAD' && path.startsWith('/api/') ? 1 : 0;
}

function ticketed(c: Context): boolean {
	const match = matchRoute('GET', c.req.path.slice('/api'.length));
	return match !== null && TICKETED.has(match.name);
}

/** Sets the header on the answer (one the adapter writes out as it is, where it can). */
function setTicket(c: Context, value: string): void {
	try {
		c.res.headers.set(TICKET_HEADER, value);
	} catch {
		// An answer with immutable headers: Hono copies it.
		c.header(TICKET_HEADER, value);
	}
}
