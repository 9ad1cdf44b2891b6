// How the upstream's refusal of a dock action becomes the dock's answer (src/server/control-
// actions.ts, refusal; docs/dock.md, answers of an action).
import { describe, expect, it } from 'vitest';
import { refusal } from '../../src/server/control-actions.ts';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
	refusal(new Response(null, { status, headers }), body);

describe('refusal', () => {
	it('a missing scope is a 403 that names the scope', () => {
		const err = answer(403, {
			error: 'missing scope',
			code: 'missing_scope',
			required_scope: 'tts:control'
		});
		expect(err).toMatchObject({
			status: 403,
			code: 'missing_scope',
			fields: { required_scope: 'tts:control' }
		});
		expect(err.message).toContain('tts:control');
	});

	it("the upstream's 409 passes with its code and words", () => {
		expect(answer(409, { error: 'the queue is paused', code: 'queue_paused' })).toMatchObject({
			status: 409,
			code: 'queue_paused',
			message: 'the queue is paused'
		});
	});

	it('a 404 is not_found', () => {
		expect(answer(404, { error: 'unknown order', code: 'whatever' })).toMatchObject({
			status: 404,
			code: 'not_found'
		});
	});

	it('a 429 waits what RateLimit-Reset (or Retry-After) says, else 5 s', () => {
		expect(answer(429, { error: 'slow down' }, { 'RateLimit-Reset': '17' }).headers).toEqual({
			'Retry-After': '17'
		});
		expect(answer(429, { error: 'slow down' }, { 'Retry-After': '3' }).headers).toEqual({
			'Retry-After': '3'
		});
		const none = answer(429, null);
		expect(none).toMatchObject({ status: 429, code: 'rate_limited' });
		expect(none.headers).toEqual({ 'Retry-After': '5' });
	});

	it.each([500, 502, 503, 504])('a %i is upstream_unavailable: try again', (status) => {
		expect(answer(status, { error: 'bad gateway' })).toMatchObject({
			status: 502,
			code: 'upstream_unavailable',
			message: 'the upstream could not be reached: try again'
		});
	});

	it("a refused server credential is upstream_refused with the upstream's words", () => {
		const err = answer(401, { error: 'invalid API key', code: 'invalid_api_key' });
		expect(err).toMatchObject({ status: 502, code: 'upstream_refused' });
		expect(err.message).toContain('invalid API key');
	});
});
