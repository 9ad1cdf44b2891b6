// Hosted mode's settings: each bad or missing one named at start; the hosted demo needs
// none of them.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostedRequested, loadHostedConfig } from '../../src/hosted/config.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'hosted-config-'));
const LIVE = {
	OAUTH_CLIENT_ID: 'oc_app',
	TIP_OAUTH_URL: 'https://tips.example/oauth',
	TIP_API_BASE_URL: 'https://api.tips.example/v1',
	TIP_WS_URL: 'wss://ws.tips.example',
	PUBLIC_URL: 'https://overlays.example.com',
	SECRET_KEY: 's'.repeat(44)
};
const problem = (env: NodeJS.ProcessEnv) => {
	try {
		loadHostedConfig(env);
	} catch (err) {
		return (err as Error).message;
	}
	throw new Error('accepted');
};

describe('hosted mode settings', () => {
	it('HOSTED is 1 or 0, anything else stops the server naming it', () => {
		expect(hostedRequested({})).toBe(false);
		expect(hostedRequested({ HOSTED: '0' })).toBe(false);
		expect(hostedRequested({ HOSTED: '1' })).toBe(true);
		expect(() => hostedRequested({ HOSTED: 'yes' })).toThrow(/HOSTED: expected 1/);
	});

	it('the hosted demo needs nothing and keeps a secret of its own beside its data', () => {
		const dataDir = dir();
		const c = loadHostedConfig({ DATA_DIR: dataDir, PORT: '9000' });
		expect(c).toMatchObject({
			mode: 'demo',
			databaseUrl: null,
			publicUrl: 'http://localhost:9000',
			oauth: null
		});
		const file = join(dataDir, 'demo-secret-key');
		expect(readFileSync(file, 'utf8').trim()).toBe(c.secretKey);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(loadHostedConfig({ DATA_DIR: dataDir }).secretKey).toBe(c.secretKey);
	});

	it('live: the OAuth app, the upstream, PUBLIC_URL and SECRET_KEY', () => {
		const c = loadHostedConfig({ ...LIVE, DATABASE_URL: 'postgres://app:pw@db:5432/overlays' });
		expect(c).toMatchObject({
			mode: 'live',
			databaseUrl: 'postgres://app:pw@db:5432/overlays',
			publicUrl: 'https://overlays.example.com',
			oauth: { clientId: 'oc_app', baseUrl: 'https://api.tips.example/v1' }
		});
	});

	it('accepts a DATABASE_URL naming the Unix socket of a PostgreSQL on the same machine', () => {
		const url = 'postgres://app@localhost/overlays?host=%2Fvar%2Frun%2Fpostgresql';
		expect(loadHostedConfig({ ...LIVE, DATABASE_URL: url }).databaseUrl).toBe(url);
	});

	it.each([
		[{ SECRET_KEY: undefined }, 'SECRET_KEY: required in hosted mode'],
		[{ SECRET_KEY: 'short' }, 'SECRET_KEY: needs at least 32 characters'],
		[{ PUBLIC_URL: undefined }, 'PUBLIC_URL: required'],
		[{ PUBLIC_URL: 'https://x.example/path' }, 'PUBLIC_URL: expected an origin'],
		[{ TIP_WS_URL: undefined }, 'TIP_WS_URL: required in hosted mode with an OAuth app'],
		[{ DATABASE_URL: 'mysql://db' }, 'DATABASE_URL: expected a PostgreSQL URL'],
		[{ TIP_API_KEY: 'tpk_something' }, 'TIP_API_KEY: not used in hosted mode'],
		[{ UPSTREAM_LOCAL_ADDRESS: 'localhost' }, 'UPSTREAM_LOCAL_ADDRESS: expected an IP address']
	])('%j stops the server: %s', (change, message) => {
		expect(problem({ ...LIVE, ...change })).toContain(message);
	});

	it('UPSTREAM_LOCAL_ADDRESS: the address upstream calls leave from', () => {
		expect(loadHostedConfig({ ...LIVE, UPSTREAM_LOCAL_ADDRESS: '127.0.0.2' }).localAddress).toBe(
			'127.0.0.2'
		);
		expect(loadHostedConfig(LIVE).localAddress).toBeNull();
	});

	it('never echoes a secret it refuses', () => {
		expect(problem({ ...LIVE, SECRET_KEY: 'too-short-secret' })).not.toContain('too-short-secret');
	});
});
