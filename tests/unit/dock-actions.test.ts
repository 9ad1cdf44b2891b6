// What the dock shows beside a button for each answer of POST /control/actions/:action
// (widgets/dock/actions.ts; docs/dock.md, answers of an action), and when it reads again.
import { describe, expect, it } from 'vitest';
import {
	actionOutcome,
	actionSnapshot,
	UNREACHABLE,
	type SendResult
} from '../../widgets/dock/actions.ts';

const ok = (body: unknown): SendResult => ({ ok: true, status: 200, body });
const http = (status: number, body: unknown, extra: { retryAfterMs?: number } = {}): SendResult => {
	const code = (body as { code?: string } | null)?.code;
	return { ok: false, kind: 'http', status, body, ...(code ? { code } : {}), ...extra };
};

describe('an action outcome', () => {
	it('says done with the server message, and waits for the event rather than reading', () => {
		expect(actionOutcome(ok({ outcome: 'done', message: 'skipped' }))).toEqual({
			kind: 'done',
			text: 'skipped',
			reread: false
		});
	});

	it('says already when pressed twice or another dock did it', () => {
		expect(actionOutcome(ok({ outcome: 'already', message: 'already skipped' }))).toEqual({
			kind: 'already',
			text: 'already skipped',
			reread: false
		});
	});

	it('reads again after a 2xx it cannot read', () => {
		expect(actionOutcome(ok('<html>'))).toMatchObject({ kind: 'done', reread: true });
	});

	it("shows a refusal with the server's reason, and reads again when its view may be stale", () => {
		const notPlaying = http(409, {
			error: 'that tip is waiting, not playing: remove it instead',
			code: 'not_playing'
		});
		expect(actionOutcome(notPlaying)).toEqual({
			kind: 'refused',
			text: 'that tip is waiting, not playing: remove it instead',
			reread: true
		});
		expect(actionOutcome(http(404, { error: 'no such order', code: 'not_found' }))).toEqual({
			kind: 'refused',
			text: 'no such order',
			reread: true
		});
		expect(
			actionOutcome(http(400, { error: 'order_id: not an order id', code: 'bad_request' }))
		).toMatchObject({ kind: 'refused', text: 'order_id: not an order id', reread: false });
	});

	it('names the scope the connection lacks', () => {
		const res = http(403, {
			error: 'missing scope',
			code: 'missing_scope',
			required_scope: 'tipping:control'
		});
		expect(actionOutcome(res)).toEqual({
			kind: 'refused',
			text: 'not allowed: the connection lacks the tipping:control scope',
			reread: false
		});
	});

	it('says try again when the upstream cannot be reached, and reads again', () => {
		for (const status of [502, 503]) {
			const res = http(status, { error: 'upstream down', code: 'upstream_unavailable' });
			expect(actionOutcome(res)).toEqual({ kind: 'unreachable', text: UNREACHABLE, reread: true });
		}
		expect(actionOutcome({ ok: false, kind: 'network', error: 'Failed to fetch' })).toMatchObject({
			kind: 'unreachable',
			reread: true
		});
	});

	it('says how long to wait after a 429', () => {
		const res = http(429, { error: 'rate limited' }, { retryAfterMs: 2400 });
		expect(actionOutcome(res)).toEqual({
			kind: 'unreachable',
			text: 'too many calls to the upstream: try again in 3 s',
			reread: false
		});
	});

	it('reports a refused credential apart, for the page to stop', () => {
		const res = http(401, { error: 'the control key was refused', code: 'bad_control_key' });
		expect(actionOutcome(res)).toMatchObject({ kind: 'unauthorized' });
	});

	it('reports 429 too_many_attempts as a refused credential, not as a wait', () => {
		const res = http(
			429,
			{ error: 'too many wrong keys', code: 'too_many_attempts' },
			{ retryAfterMs: 30_000 }
		);
		expect(actionOutcome(res)).toMatchObject({ kind: 'unauthorized', reread: false });
	});
});

describe('the snapshot an action changes', () => {
	it('is its queue, or tipping', () => {
		expect(actionSnapshot('tts-skip')).toBe('tts');
		expect(actionSnapshot('tts-replay')).toBe('tts');
		expect(actionSnapshot('media-hide')).toBe('media');
		expect(actionSnapshot('tipping-close')).toBe('tipping');
	});
});
