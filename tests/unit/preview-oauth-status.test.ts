// The preview's reading of GET /oauth/status (runs with classic zod and with the browser bundle's).
import { expect, it } from 'vitest';
import { OAuthStatus } from '../../widgets/preview/oauth-status.ts';

it('reads what the token endpoint sends, and tolerates missing or extra fields', () => {
	const full = {
		state: 'revoked',
		tenant: 'Demo Streamer',
		scopes: ['tts:read'],
		authorization_id: 'oa_1',
		reason: 'the upstream ended the connection',
		last_error: { code: 'access_denied', message: 'access was denied', at: '2026-01-01T00:00:00Z' },
		using: 'none',
		extra: 1
	};
	expect(OAuthStatus.parse(full)).toMatchObject({ state: 'revoked', reason: full.reason });
	expect(OAuthStatus.parse({ state: 'disconnected' }).state).toBe('disconnected');
	expect(OAuthStatus.safeParse({ state: 'weird' }).success).toBe(false);
});
