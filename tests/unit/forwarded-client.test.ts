// The client a failed overlay key is counted against: the socket's address, or behind a reverse
// proxy on the same machine (every request from loopback) the address the proxy appended.
import { describe, expect, it } from 'vitest';
import { forwardedClient } from '../../src/server/security.ts';

describe('forwardedClient', () => {
	it('behind a local proxy, counts the address the proxy appended, not what the client sent', () => {
		expect(forwardedClient('127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
		expect(forwardedClient('::1', '198.51.100.2')).toBe('198.51.100.2');
		expect(forwardedClient('::ffff:127.0.0.1', '1.2.3.4, 203.0.113.7')).toBe('203.0.113.7');
	});

	it('ignores the header from any other peer, and without it uses the socket', () => {
		expect(forwardedClient('203.0.113.9', '127.0.0.1')).toBe('203.0.113.9');
		expect(forwardedClient('127.0.0.1', undefined)).toBe('127.0.0.1');
		expect(forwardedClient('127.0.0.1', ' ')).toBe('127.0.0.1');
	});
});
