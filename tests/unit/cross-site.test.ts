// Which requests a browser marks as sent by another site's page (src/server/security.ts,
// crossSite): our own origins are the request's Host, PUBLIC_URL's origin and, for the names of
// ALLOWED_HOSTS, their http and https origins on the standard ports (a reverse proxy on that name).
import { describe, expect, it } from 'vitest';
import { crossSite } from '../../src/server/security.ts';

const from = (headers: Record<string, string>) => (name: string) => headers[name];
const PUBLIC = 'https://overlays.example.com';

describe('crossSite', () => {
	it('takes the request’s own host, and a program that sends no Origin', () => {
		expect(crossSite(from({ host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' }))).toBe(
			false
		);
		expect(crossSite(from({ host: '127.0.0.1:8787' }))).toBe(false);
	});

	it('takes PUBLIC_URL’s origin under any Host, and nothing else of that name', () => {
		const host = '127.0.0.1:8787';
		expect(crossSite(from({ host, origin: PUBLIC }), PUBLIC)).toBe(false);
		expect(crossSite(from({ host, origin: 'http://overlays.example.com' }), PUBLIC)).toBe(true);
		expect(crossSite(from({ host, origin: `${PUBLIC}:8443` }), PUBLIC)).toBe(true);
	});

	it('takes http and https on the standard port of a name in ALLOWED_HOSTS', () => {
		const host = '127.0.0.1:8787';
		const own = ['studio.lan'];
		expect(crossSite(from({ host, origin: 'https://studio.lan' }), undefined, own)).toBe(false);
		expect(crossSite(from({ host, origin: 'http://studio.lan' }), undefined, own)).toBe(false);
		expect(crossSite(from({ host, origin: 'http://studio.lan:3000' }), undefined, own)).toBe(true);
		expect(crossSite(from({ host, origin: 'https://evil.example' }), undefined, own)).toBe(true);
		expect(crossSite(from({ host, origin: 'null' }), undefined, own)).toBe(true);
	});

	it('refuses what the browser marks cross-site whatever its Origin', () => {
		const headers = { host: '127.0.0.1:8787', origin: PUBLIC, 'sec-fetch-site': 'cross-site' };
		expect(crossSite(from(headers), PUBLIC, ['overlays.example.com'])).toBe(true);
	});
});
