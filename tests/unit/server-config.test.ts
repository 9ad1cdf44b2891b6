// The token endpoint's configuration (issue: "Configuration from the environment, parsed with zod at
// start; a bad or missing value stops the server with a message that names the variable").
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
	ConfigError,
	loadConfig as loadConfigIn,
	persistentKey,
	storeNewKey
} from '../../src/server/config.ts';

const OVERLAY_KEY = 'test-overlay-key-0123456789';
const LIVE = {
	TIP_API_KEY: 'tk_live_0123456789abcdef',
	TIP_API_BASE_URL: 'https://api.example.com/v1',
	TIP_WS_URL: 'wss://api.example.com/realtime',
	OVERLAY_KEY
};

/** The ConfigError that loadConfig throws for this environment (fails the test if none). */
function configError(env: NodeJS.ProcessEnv): ConfigError {
	try {
		loadConfig(env);
	} catch (err) {
		expect(err).toBeInstanceOf(ConfigError);
		return err as ConfigError;
	}
	throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'overlay-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** loadConfig with the generated control key kept in the test's folder, not in the checkout. */
const loadConfig = (env: NodeJS.ProcessEnv) =>
	loadConfigIn({ CONTROL_KEY_FILE: join(dir, '.control-key'), ...env });

describe('loadConfig', () => {
	it('runs in demo mode with the documented defaults when TIP_API_KEY is unset', () => {
		const config = loadConfig({ OVERLAY_KEY });
		expect(config).toMatchObject({
			mode: 'demo',
			upstream: null,
			host: '127.0.0.1',
			port: 8787,
			overlayKey: OVERLAY_KEY,
			allowedHosts: [],
			skipBuild: false
		});
	});

	it('runs in live mode with the upstream addresses when all three are set', () => {
		const config = loadConfig(LIVE);
		expect(config.mode).toBe('live');
		expect(config.upstream).toEqual({
			baseUrl: 'https://api.example.com/v1',
			wsUrl: 'wss://api.example.com/realtime',
			apiKey: LIVE.TIP_API_KEY
		});
	});

	it('drops a trailing slash from the base URL so that paths can be appended', () => {
		const config = loadConfig({ ...LIVE, TIP_API_BASE_URL: 'http://127.0.0.1:8788/v1/' });
		expect(config.upstream?.baseUrl).toBe('http://127.0.0.1:8788/v1');
	});

	it('names each live-mode address that is missing when TIP_API_KEY is set', () => {
		const err = configError({ TIP_API_KEY: LIVE.TIP_API_KEY, OVERLAY_KEY });
		expect(err.message).toMatch(/TIP_API_BASE_URL: required when TIP_API_KEY is set/);
		expect(err.message).toMatch(/TIP_WS_URL: required when TIP_API_KEY is set/);
	});

	it('names TIP_API_BASE_URL when it does not end in /v1', () => {
		const err = configError({ ...LIVE, TIP_API_BASE_URL: 'https://api.example.com/v2' });
		expect(err.message).toMatch(/TIP_API_BASE_URL: .*ending in \/v1/);
		expect(err.message).not.toMatch(/TIP_WS_URL/);
	});

	it.each([
		['not a URL', 'not a url'],
		['a URL of another scheme', 'ftp://api.example.com/v1'],
		['a URL with a query', 'https://api.example.com/v1?tenant=1'],
		['a URL with a fragment', 'https://api.example.com/v1#x'],
		['a URL with a password', 'https://user:secret@api.example.com/v1']
	])('names TIP_API_BASE_URL when it is %s', (_, value) => {
		const err = configError({ ...LIVE, TIP_API_BASE_URL: value });
		expect(err.message).toMatch(/TIP_API_BASE_URL: expected/);
	});

	it.each([
		['an http URL', 'https://api.example.com/realtime'],
		['not a URL', 'realtime']
	])('names TIP_WS_URL when it is %s', (_, value) => {
		const err = configError({ ...LIVE, TIP_WS_URL: value });
		expect(err.message).toMatch(/TIP_WS_URL: expected a ws:\/\/ or wss:\/\/ URL/);
	});

	it('names TIP_API_KEY when it contains spaces', () => {
		const err = configError({ ...LIVE, TIP_API_KEY: 'two words here' });
		expect(err.message).toMatch(/TIP_API_KEY: expected/);
	});

	it('never repeats the API key in its error messages', () => {
		const err = configError({ ...LIVE, TIP_WS_URL: 'nope' });
		expect(err.message).not.toContain(LIVE.TIP_API_KEY);
	});

	it.each(['abc', '-1', '1.5', '65536', '0x10', '1e3', ' '])(
		'names PORT when it is %j',
		(value) => {
			const err = configError({ OVERLAY_KEY, PORT: value });
			expect(err.message).toMatch(/PORT: expected a port number/);
		}
	);

	it('accepts PORT=0 for an ephemeral port and any port up to 65535', () => {
		expect(loadConfig({ OVERLAY_KEY, PORT: '0' }).port).toBe(0);
		expect(loadConfig({ OVERLAY_KEY, PORT: '65535' }).port).toBe(65535);
	});

	it('names HOST when it is not a host name or address', () => {
		const err = configError({ OVERLAY_KEY, HOST: 'bad host/name' });
		expect(err.message).toMatch(/HOST: expected a host name or IP address/);
	});

	it('accepts an IPv6 HOST and a list of ALLOWED_HOSTS', () => {
		const config = loadConfig({
			OVERLAY_KEY,
			HOST: '::1',
			ALLOWED_HOSTS: 'Obs.Lan, studio.local,'
		});
		expect(config.host).toBe('::1');
		expect(config.allowedHosts).toEqual(['obs.lan', 'studio.local']);
	});

	it('takes PUBLIC_URL, the address behind a reverse proxy, as its origin', () => {
		expect(loadConfig({ OVERLAY_KEY }).publicOrigin).toBeNull();
		const config = loadConfig({ OVERLAY_KEY, PUBLIC_URL: 'https://Overlays.Example.com/' });
		expect(config.publicOrigin).toBe('https://overlays.example.com');
		expect(loadConfig({ OVERLAY_KEY, PUBLIC_URL: 'http://studio.lan:8080' }).publicOrigin).toBe(
			'http://studio.lan:8080'
		);
	});

	it.each([
		['not a URL', 'overlays.example.com', /PUBLIC_URL: expected the http\(s\) address/],
		['not http(s)', 'ftp://overlays.example.com', /PUBLIC_URL: expected the http\(s\) address/],
		['a path', 'https://overlays.example.com/tips', /PUBLIC_URL: expected an origin/],
		['a query', 'https://overlays.example.com/?a=1', /PUBLIC_URL: expected an origin/],
		['credentials', 'https://me:pw@overlays.example.com', /PUBLIC_URL: expected an origin/]
	])('names PUBLIC_URL when it has %s', (_, value, message) => {
		expect(configError({ OVERLAY_KEY, PUBLIC_URL: value }).message).toMatch(message);
	});

	it.each([
		['too short', 'short'],
		['too long', 'k'.repeat(129)],
		['made of other characters', 'key with spaces and more']
	])('names OVERLAY_KEY when it is %s', (_, value) => {
		const err = configError({ OVERLAY_KEY: value });
		expect(err.message).toMatch(/OVERLAY_KEY: expected 16 to 128 characters/);
		expect(err.message).not.toContain(value);
	});

	it('names every bad variable at once', () => {
		const err = configError({ OVERLAY_KEY: 'short', PORT: 'abc', HOST: 'a b' });
		expect(err.message).toMatch(/OVERLAY_KEY:/);
		expect(err.message).toMatch(/PORT:/);
		expect(err.message).toMatch(/HOST:/);
	});

	it('names DEMO_TRAFFIC and SKIP_BUILD when they are not what they expect', () => {
		expect(configError({ OVERLAY_KEY, DEMO_TRAFFIC: 'lots' }).message).toMatch(/DEMO_TRAFFIC:/);
		expect(configError({ OVERLAY_KEY, DEMO_TRAFFIC: '601' }).message).toMatch(/DEMO_TRAFFIC:/);
		expect(configError({ OVERLAY_KEY, SKIP_BUILD: 'yes' }).message).toMatch(/SKIP_BUILD:/);
		expect(loadConfig({ OVERLAY_KEY, DEMO_TRAFFIC: '0', SKIP_BUILD: '1' })).toMatchObject({
			demoTraffic: 0,
			skipBuild: true
		});
	});

	it('treats empty values as unset', () => {
		const file = join(dir, 'overlay-key');
		const config = loadConfig({
			TIP_API_KEY: '',
			TIP_API_BASE_URL: '',
			TIP_WS_URL: '',
			HOST: '',
			PORT: '',
			OVERLAY_KEY: '',
			OVERLAY_KEY_FILE: file
		});
		expect(config).toMatchObject({ mode: 'demo', upstream: null, host: '127.0.0.1', port: 8787 });
		// An empty OVERLAY_KEY falls back to the generated, persisted key.
		expect(config.overlayKey).toBe(readFileSync(file, 'utf8').trim());
	});

	it('keeps the generated overlay key in OVERLAY_KEY_FILE when OVERLAY_KEY is unset', () => {
		const file = join(dir, 'overlay-key');
		const first = loadConfig({ OVERLAY_KEY_FILE: file }).overlayKey;
		expect(loadConfig({ OVERLAY_KEY_FILE: file }).overlayKey).toBe(first);
	});
});

describe('the control key (the dock)', () => {
	const CONTROL_KEY = 'test-control-key-0123456789';

	it('takes CONTROL_KEY, with no file to store a new one in', () => {
		const config = loadConfig({ OVERLAY_KEY, CONTROL_KEY });
		expect(config).toMatchObject({ controlKey: CONTROL_KEY, controlKeyFile: null });
	});

	it('generates one apart from the overlay key, kept owner-only in CONTROL_KEY_FILE', () => {
		const file = join(dir, 'control-key');
		const config = loadConfig({ OVERLAY_KEY, CONTROL_KEY_FILE: file });
		expect(config.controlKey).toMatch(/^[A-Za-z0-9_-]{32,128}$/);
		expect(config.controlKey).not.toBe(config.overlayKey);
		expect(config.controlKeyFile).toBe(file);
		expect(readFileSync(file, 'utf8').trim()).toBe(config.controlKey);
		if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(loadConfig({ OVERLAY_KEY, CONTROL_KEY_FILE: file }).controlKey).toBe(config.controlKey);
	});

	it('names CONTROL_KEY when it is not a key', () => {
		const err = configError({ OVERLAY_KEY, CONTROL_KEY: 'short' });
		expect(err.message).toMatch(/CONTROL_KEY: expected 16 to 128 characters/);
		expect(err.message).not.toContain('short');
	});

	it('names CONTROL_KEY when it is the overlay key, without repeating the key', () => {
		const err = configError({ OVERLAY_KEY, CONTROL_KEY: OVERLAY_KEY });
		expect(err.message).toMatch(/CONTROL_KEY: the control key must differ from the overlay key/);
		expect(err.message).not.toContain(OVERLAY_KEY);
	});

	it('names CONTROL_KEY_FILE when the file holds the overlay key', () => {
		const file = join(dir, 'control-key');
		writeFileSync(file, OVERLAY_KEY + '\n');
		expect(configError({ OVERLAY_KEY, CONTROL_KEY_FILE: file }).message).toMatch(
			/CONTROL_KEY_FILE: the control key must differ/
		);
	});

	it('names the control key variables when its file cannot be written', () => {
		const err = configError({ OVERLAY_KEY, CONTROL_KEY_FILE: join(dir, 'missing', 'key') });
		expect(err.message).toMatch(/control key file .*set CONTROL_KEY, or CONTROL_KEY_FILE/);
	});

	it('a new key replaces the stored one, and the next start reads the new one', () => {
		const file = join(dir, 'control-key');
		const first = loadConfig({ OVERLAY_KEY, CONTROL_KEY_FILE: file }).controlKey;
		const next = storeNewKey(file, 'control');
		expect(next).not.toBe(first);
		expect(loadConfig({ OVERLAY_KEY, CONTROL_KEY_FILE: file }).controlKey).toBe(next);
	});
});

describe('persistentKey', () => {
	it('creates an owner-only file holding a key that passes the OVERLAY_KEY rule', () => {
		const file = join(dir, '.overlay-key');
		const key = persistentKey(file, 'overlay');
		expect(key).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
		expect(readFileSync(file, 'utf8').trim()).toBe(key);
		if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
	});

	it('returns the same key on the next call so that OBS URLs survive a restart', () => {
		const file = join(dir, '.overlay-key');
		const key = persistentKey(file, 'overlay');
		expect(persistentKey(file, 'overlay')).toBe(key);
		expect(persistentKey(file, 'overlay')).toBe(key);
	});

	it('makes a different key in a different place (CSPRNG, not a constant)', () => {
		const a = persistentKey(join(dir, 'a'), 'overlay');
		const b = persistentKey(join(dir, 'b'), 'overlay');
		expect(a).not.toBe(b);
		expect(a.length).toBeGreaterThanOrEqual(32);
	});

	it('accepts a key file written by hand with a trailing newline', () => {
		const file = join(dir, '.overlay-key');
		writeFileSync(file, 'hand-written-key-0123456789\n');
		expect(persistentKey(file, 'overlay')).toBe('hand-written-key-0123456789');
	});

	it('names the file when it cannot be read or written instead of crashing', () => {
		// A directory where the file should be, and a file inside a folder that does not exist.
		expect(() => persistentKey(dir, 'overlay')).toThrow(ConfigError);
		expect(() => persistentKey(dir, 'overlay')).toThrow(dir);
		const nowhere = join(dir, 'missing-folder', '.overlay-key');
		expect(() => persistentKey(nowhere, 'overlay')).toThrow(ConfigError);
		expect(() => persistentKey(nowhere, 'overlay')).toThrow(nowhere);
	});

	it.each([
		['empty', ''],
		['too short', 'abc'],
		['holding other characters', 'not a valid key!!!!!!!!!'],
		['binary garbage', '\u0000\u0001\u00ff'.repeat(10)]
	])('refuses a key file that is %s with a message naming the file', (_, content) => {
		const file = join(dir, '.overlay-key');
		writeFileSync(file, content);
		expect(() => persistentKey(file, 'overlay')).toThrow(ConfigError);
		expect(() => persistentKey(file, 'overlay')).toThrow(file);
		// The file is left alone: the streamer decides whether to delete it.
		expect(readFileSync(file, 'utf8')).toBe(content);
	});
});
