// The check of a webhook delivery's signature (src/hosted/webhook-signature.ts): HMAC-SHA256 over
// `<t>.<raw body>` with the endpoint's secret, t within 300 s, anything else refused.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureValid } from '../../src/hosted/webhook-signature.ts';

const SECRET = 'whsec_dGVzdC1zZWNyZXQtb2YtdGhlLWVuZHBvaW50';
const BODY = '{"id":"evt_1","type":"tip.created","created_at":"2026-12-01T00:00:00Z","data":{}}';
const NOW = 1_764_547_200;
const bytes = (text: string) => new TextEncoder().encode(text);
const mac = (t: number | string, body = BODY, secret = SECRET) =>
	createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
const header = (t: number, body = BODY, secret = SECRET) => `t=${t},v1=${mac(t, body, secret)}`;

describe('a webhook signature', () => {
	it('is accepted when it signs the raw body with the secret at about our time', () => {
		expect(signatureValid(header(NOW), bytes(BODY), SECRET, NOW)).toBe(true);
		expect(signatureValid(header(NOW - 300), bytes(BODY), SECRET, NOW)).toBe(true);
		expect(signatureValid(header(NOW + 300), bytes(BODY), SECRET, NOW)).toBe(true);
	});

	it('is refused when t is more than 300 s from our clock, either way', () => {
		expect(signatureValid(header(NOW - 301), bytes(BODY), SECRET, NOW)).toBe(false);
		expect(signatureValid(header(NOW + 301), bytes(BODY), SECRET, NOW)).toBe(false);
	});

	it('is refused for a body altered after signing, even by one byte of whitespace', () => {
		expect(signatureValid(header(NOW), bytes(BODY + ' '), SECRET, NOW)).toBe(false);
		expect(signatureValid(header(NOW), bytes(BODY.replace('evt_1', 'evt_2')), SECRET, NOW)).toBe(
			false
		);
	});

	it('is refused when signed with another secret, or with its t changed', () => {
		expect(signatureValid(header(NOW, BODY, 'whsec_other'), bytes(BODY), SECRET, NOW)).toBe(false);
		expect(signatureValid(`t=${NOW + 1},v1=${mac(NOW)}`, bytes(BODY), SECRET, NOW)).toBe(false);
	});

	it.each([
		['no header', undefined],
		['an empty header', ''],
		['no t', `v1=${mac(NOW)}`],
		['no v1', `t=${NOW}`],
		['a t that is no number', `t=soon,v1=${mac('soon')}`],
		['a MAC cut short', `t=${NOW},v1=${mac(NOW).slice(0, 62)}`],
		['a MAC that is no hex', `t=${NOW},v1=${'z'.repeat(64)}`],
		['a MAC of another scheme only', `t=${NOW},v0=${mac(NOW)}`],
		['a part without =', `t=${NOW},v1`],
		['a header far too long', `t=${NOW},v1=${mac(NOW)},${'x=1,'.repeat(300)}`]
	])('is refused with %s', (_name, value) => {
		expect(signatureValid(value, bytes(BODY), SECRET, NOW)).toBe(false);
	});

	it('is accepted when one of several v1 MACs matches (a secret being rotated)', () => {
		const both = `t=${NOW},v1=${mac(NOW, BODY, 'whsec_old')},v1=${mac(NOW)}`;
		expect(signatureValid(both, bytes(BODY), SECRET, NOW)).toBe(true);
	});

	it('checks the bytes as sent, not a text re-encoded', () => {
		const body = '{"id":"evt_é","type":"x","created_at":"2026-12-01T00:00:00Z","data":{}}';
		expect(signatureValid(header(NOW, body), bytes(body), SECRET, NOW)).toBe(true);
		const latin1 = Uint8Array.from(Buffer.from(body, 'latin1'));
		expect(signatureValid(header(NOW, body), latin1, SECRET, NOW)).toBe(false);
	});
});
