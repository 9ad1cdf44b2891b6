// The check of a webhook delivery's signature (docs/upstream.md, webhooks): `Service-Signature:
// t=<unix seconds>,v1=<hex HMAC-SHA256>` over `<t>.<raw body>` keyed with the endpoint's secret,
// `t` within 300 s of our clock, the MACs compared in constant time. Pure: the clock is given.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far `t` may be from our clock, either way (seconds). */
export const SIGNATURE_TOLERANCE_S = 300;

const MAC_HEX = /^[0-9a-f]{64}$/i;

/** Whether `header` signs `body` (the raw bytes, before any parsing) with `secret` at `nowS`. */
export function signatureValid(
	header: string | undefined,
	body: Uint8Array,
	secret: string,
	nowS: number
): boolean {
	if (!header || header.length > 1024) return false;
	let t: string | null = null;
	const macs: string[] = [];
	for (const part of header.split(',')) {
		const eq = part.indexOf('=');
		const name = part.slice(0, eq).trim();
		const value = part.slice(eq + 1).trim();
		if (eq < 0) return false;
		if (name === 't') t = value;
		else if (name === 'v1') macs.push(value);
	}
	if (t === null || !/^\d{1,12}$/.test(t) || Math.abs(nowS - Number(t)) > SIGNATURE_TOLERANCE_S)
		return false;
	const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
	// Every v1 the header carries is compared (a rotation may sign with two secrets).
	let ok = false;
	for (const mac of macs) {
		if (!MAC_HEX.test(mac)) continue;
		const given = Buffer.from(mac, 'hex');
		if (given.length === expected.length && timingSafeEqual(given, expected)) ok = true;
	}
	return ok;
}
