// The token endpoint's configuration, read from the environment in one place and validated with zod.
// The upstream API key lives here and in the upstream client only; nothing a browser receives is
// built from this object except through explicit schemas that have no room for the key.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { KEY_FORMAT } from '../contract/keys.ts';
import { DEFAULT_RETENTION_DAYS } from './activity/store.ts';

export class ConfigError extends Error {}

/** The address browsers reach the server at through a reverse proxy (PUBLIC_URL): an origin. */
export const PublicUrl = z
	.url({ protocol: /^https?$/, error: 'expected the http(s) address browsers use' })
	.refine(
		(v) =>
			URL.canParse(v) &&
			['', '/'].includes(new URL(v).pathname) &&
			!new URL(v).search &&
			!new URL(v).hash &&
			!new URL(v).username &&
			!new URL(v).password,
		'expected an origin such as https://overlays.example.com (no path, query or fragment)'
	);

export const Env = z.object({
	TIP_API_KEY: z
		.string()
		.regex(/^\S{8,512}$/, 'expected the upstream API key (no spaces)')
		.optional(),
	TIP_API_BASE_URL: z
		.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
		// Paths are appended to it, so a query, a fragment or credentials would break every call.
		.refine(isBaseUrl, 'expected the base URL ending in /v1, with no query, fragment or password')
		.optional(),
	TIP_WS_URL: z.url({ protocol: /^wss?$/, error: 'expected a ws:// or wss:// URL' }).optional(),
	HOST: z
		.string()
		.regex(/^[A-Za-z0-9.:[\]-]+$/, 'expected a host name or IP address')
		.default('127.0.0.1'),
	// Digits only: z.coerce would read ' ' as 0 (a random port) and '0x10' as 16.
	PORT: z
		.string()
		.regex(/^\d{1,5}$/, 'expected a port number (0 to 65535)')
		.transform(Number)
		.pipe(z.number().max(65535, 'expected a port number (0 to 65535)'))
		.default(8787),
	OVERLAY_KEY: z
		.string()
		.regex(KEY_FORMAT, 'expected 16 to 128 characters of A-Z a-z 0-9 _ -')
		.optional(),
	OVERLAY_KEY_FILE: z.string().min(1).default('.overlay-key'),
	/** The dock's key (X-Control-Key): skip, remove, pause, replay; never in a browser source. */
	CONTROL_KEY: z
		.string()
		.regex(KEY_FORMAT, 'expected 16 to 128 characters of A-Z a-z 0-9 _ -')
		.optional(),
	CONTROL_KEY_FILE: z.string().min(1).default('.control-key'),
	/** Extra names this server may be reached by (comma-separated), for the Host header check. */
	ALLOWED_HOSTS: z.string().default(''),
	/** Behind a reverse proxy: the address browsers use, our own origin whatever Host arrives. */
	PUBLIC_URL: PublicUrl.optional(),
	DEMO_TRAFFIC: z
		.string()
		.regex(/^\d+(\.\d+)?$/, 'expected demo events per minute (0 to 600)')
		.transform(Number)
		.pipe(z.number().max(600, 'expected demo events per minute (0 to 600)'))
		.default(4),
	/** 1: serve dist/ as it is, even when older than its sources (tests, read-only checkouts). */
	SKIP_BUILD: z.enum(['0', '1'], { error: 'expected 1 (do not build) or 0' }).default('0'),
	// Connect with OAuth (README): the app registered with the upstream, and where it lives.
	OAUTH_CLIENT_ID: z
		.string()
		.regex(/^[\x21-\x7e]{1,200}$/, "expected the OAuth app's client id (oc_...)")
		.optional(),
	OAUTH_CLIENT_SECRET: z
		.string()
		.regex(/^[\x21-\x7e]{1,500}$/, 'expected the client secret (no spaces)')
		.optional(),
	TIP_OAUTH_URL: z
		.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
		.refine(
			isOAuthUrl,
			'expected the upstream {oauth_url}: https:// (http:// only on localhost or 127.0.0.1), no query or fragment'
		)
		.optional(),
	OAUTH_REDIRECT_URI: z
		.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
		.refine(
			(v) => URL.canParse(v) && new URL(v).pathname === '/oauth/callback' && !new URL(v).hash,
			'expected the URL of this server ending in /oauth/callback (registered with the OAuth app)'
		)
		.optional(),
	OAUTH_TOKEN_FILE: z.string().min(1).default('.oauth-token.json'),
	/** The moderation rules and decisions (docs/moderation.md). */
	MODERATION_FILE: z.string().min(1).default('.moderation.json'),
	/** Thanks in chat: their settings and the ledger of tips thanked (docs/dock.md). */
	CHAT_FILE: z.string().min(1).default('.chat.json'),
	/** The chat commands: their triggers, what the kit created upstream, the runs (docs/dock.md). */
	COMMANDS_FILE: z.string().min(1).default('.commands.json'),
	/** The stored settings of the widgets and overlays (docs/settings.md). */
	SETTINGS_FILE: z.string().min(1).default('.settings.json'),
	/** The Activity's day files (docs/activity.md). */
	ACTIVITY_DIR: z.string().min(1).default('.activity'),
	ACTIVITY_RETENTION_DAYS: retentionDays()
});

/** How many days the Activity is kept (docs/activity.md): both modes read it so. */
export function retentionDays() {
	return z
		.string()
		.regex(/^\d{1,4}$/, 'expected a number of days (1 to 3650)')
		.transform(Number)
		.pipe(
			z
				.number()
				.min(1, 'expected a number of days (1 to 3650)')
				.max(3650, 'expected a number of days (1 to 3650)')
		)
		.default(DEFAULT_RETENTION_DAYS);
}

/** The overlay key and the dock's control key: from the environment, else from their files. */
function keysOf(
	e: z.infer<typeof Env>
): Pick<Config, 'overlayKey' | 'controlKey' | 'controlKeyFile'> {
	const overlayKey = e.OVERLAY_KEY ?? persistentKey(e.OVERLAY_KEY_FILE, 'overlay');
	const controlKey = e.CONTROL_KEY ?? persistentKey(e.CONTROL_KEY_FILE, 'control');
	// The overlay key sits in OBS browser-source URLs, which get shown by accident: if it were the
	// control key too, anyone who saw it could skip and pause.
	if (controlKey === overlayKey)
		throw new ConfigError(
			`Invalid environment:\n  ${e.CONTROL_KEY ? 'CONTROL_KEY' : 'CONTROL_KEY_FILE'}: the control key must differ from the overlay key`
		);
	return { overlayKey, controlKey, controlKeyFile: e.CONTROL_KEY ? null : e.CONTROL_KEY_FILE };
}

/** Runs even after the URL check failed (zod checks continue), so it must not throw. */
function isOAuthUrl(value: string): boolean {
	if (!URL.canParse(value)) return false;
	const u = new URL(value);
	const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
	return (
		(u.protocol === 'https:' || loopback) && !u.search && !u.hash && !u.username && !u.password
	);
}

/** Runs even after the URL check failed (zod checks continue), so it must not throw. */
function isBaseUrl(value: string): boolean {
	if (!URL.canParse(value)) return false;
	const u = new URL(value);
	return /\/v1\/?$/.test(u.pathname) && !u.search && !u.hash && !u.username && !u.password;
}

export interface Upstream {
	/** `{base_url}`, without a trailing slash. */
	baseUrl: string;
	wsUrl: string;
	apiKey: string;
}

export interface OAuthConfig {
	/** `{oauth_url}`, the issuer. */
	issuer: string;
	clientId: string;
	/** Absent: a public client. */
	clientSecret?: string;
	tokenFile: string;
}

export interface Config {
	mode: 'live' | 'demo';
	/** Absent in demo mode until the embedded simulator has started. */
	upstream: Upstream | null;
	host: string;
	port: number;
	overlayKey: string;
	/** The dock's control key: CONTROL_KEY, else the one kept in CONTROL_KEY_FILE. */
	controlKey: string;
	/** Where a new control key is stored; null: CONTROL_KEY sets it (a new one cannot be kept). */
	controlKeyFile: string | null;
	allowedHosts: string[];
	/** PUBLIC_URL's origin (`https://overlays.example.com`); null: unset. */
	publicOrigin: string | null;
	demoTraffic: number;
	/** Serve the bundle as it is instead of rebuilding it when stale (SKIP_BUILD=1). */
	skipBuild: boolean;
	/** Live mode with an OAuth app (OAUTH_CLIENT_ID); null otherwise. */
	oauth: OAuthConfig | null;
	/** OAUTH_REDIRECT_URI; null: http://localhost:<port>/oauth/callback. */
	oauthRedirectUri: string | null;
	/** MODERATION_FILE: where the moderation rules and decisions are kept. */
	moderationFile: string;
	/** CHAT_FILE: where thanks in chat keep their settings and the tips thanked. */
	chatFile: string;
	/** COMMANDS_FILE: where the chat commands' settings and runs are kept. */
	commandsFile: string;
	/** SETTINGS_FILE: where the stored settings are kept. */
	settingsFile: string;
	/** ACTIVITY_DIR: where the Activity's day files are kept. */
	activityDir: string;
	/** ACTIVITY_RETENTION_DAYS: how long the Activity keeps an entry. */
	activityRetentionDays: number;
}

/** Parse the environment; a bad or missing value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
	// Empty variables count as unset.
	const raw = Object.fromEntries(
		Object.entries(env).filter(([, v]) => v !== undefined && v !== '')
	);
	const parsed = Env.safeParse(raw);
	if (!parsed.success) {
		const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
		throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
	}
	const e = parsed.data;
	let upstream: Upstream | null = null;
	const orphans = (['OAUTH_CLIENT_SECRET', 'TIP_OAUTH_URL'] as const).filter(
		(k) => e[k] && !e.OAUTH_CLIENT_ID
	);
	if (orphans.length)
		throw new ConfigError(
			`Invalid environment:\n  OAUTH_CLIENT_ID: required when ${orphans.join(' or ')} is set`
		);
	if (e.TIP_API_KEY || e.OAUTH_CLIENT_ID) {
		const why = e.TIP_API_KEY ? 'TIP_API_KEY is set' : 'OAUTH_CLIENT_ID is set';
		const missing: ('TIP_API_BASE_URL' | 'TIP_WS_URL' | 'TIP_OAUTH_URL')[] = (
			['TIP_API_BASE_URL', 'TIP_WS_URL'] as const
		).filter((k) => !e[k]);
		if (e.OAUTH_CLIENT_ID && !e.TIP_OAUTH_URL) missing.push('TIP_OAUTH_URL');
		if (missing.length)
			throw new ConfigError(
				`Invalid environment:\n${missing.map((k) => `  ${k}: required when ${k === 'TIP_OAUTH_URL' ? 'OAUTH_CLIENT_ID is set' : why} (live mode)`).join('\n')}`
			);
		upstream = {
			baseUrl: e.TIP_API_BASE_URL!.replace(/\/+$/, ''),
			wsUrl: e.TIP_WS_URL!,
			// OAuth only: no key; the upstream client sends the connection's access token.
			apiKey: e.TIP_API_KEY ?? ''
		};
	}
	return {
		mode: upstream ? 'live' : 'demo',
		upstream,
		host: e.HOST,
		port: e.PORT,
		...keysOf(e),
		allowedHosts: e.ALLOWED_HOSTS.split(',')
			.map((h) => h.trim().toLowerCase())
			.filter(Boolean),
		publicOrigin: e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : null,
		demoTraffic: e.DEMO_TRAFFIC,
		skipBuild: e.SKIP_BUILD === '1',
		oauth: e.OAUTH_CLIENT_ID
			? {
					issuer: e.TIP_OAUTH_URL!.replace(/\/+$/, ''),
					clientId: e.OAUTH_CLIENT_ID,
					...(e.OAUTH_CLIENT_SECRET ? { clientSecret: e.OAUTH_CLIENT_SECRET } : {}),
					tokenFile: e.OAUTH_TOKEN_FILE
				}
			: null,
		oauthRedirectUri: e.OAUTH_REDIRECT_URI ?? null,
		...keptWhere(e)
	};
}

/** Where the kept state lives, and how long the Activity keeps an entry. */
function keptWhere(
	e: z.infer<typeof Env>
): Pick<
	Config,
	| 'moderationFile'
	| 'chatFile'
	| 'commandsFile'
	| 'settingsFile'
	| 'activityDir'
	| 'activityRetentionDays'
> {
	return {
		moderationFile: e.MODERATION_FILE,
		chatFile: e.CHAT_FILE,
		commandsFile: e.COMMANDS_FILE,
		settingsFile: e.SETTINGS_FILE,
		activityDir: e.ACTIVITY_DIR,
		activityRetentionDays: e.ACTIVITY_RETENTION_DAYS
	};
}

/** The two keys kept in a file when not set in the environment: their names in messages. */
const KEY_NAMES = {
	overlay: { what: 'overlay key', env: 'OVERLAY_KEY', file: 'OVERLAY_KEY_FILE' },
	control: { what: 'control key', env: 'CONTROL_KEY', file: 'CONTROL_KEY_FILE' }
} as const;

type KeyKind = keyof typeof KEY_NAMES;

/**
 * A key (the overlay key, the dock's control key) from a local git-ignored file, created with a
 * CSPRNG on first start so that OBS URLs stay the same across restarts. Written atomically with
 * owner-only permissions.
 */
export function persistentKey(file: string, kind: KeyKind): string {
	const { what } = KEY_NAMES[kind];
	if (existsSync(file)) {
		const key = keyFileIo(file, kind, 'read', () => readFileSync(file, 'utf8')).trim();
		if (!KEY_FORMAT.test(key))
			throw new ConfigError(
				`Invalid ${what} file ${file}: expected 16 to 128 characters of A-Z a-z 0-9 _ - (delete it to make a new one)`
			);
		return key;
	}
	return storeNewKey(file, kind);
}

/** Makes a new key with a CSPRNG and keeps it in `file` (replacing the one there). */
export function storeNewKey(file: string, kind: KeyKind): string {
	const key = randomBytes(24).toString('base64url');
	keyFileIo(file, kind, 'write', () => writeOwnerOnly(file, key));
	return key;
}

/**
 * A file system error (a directory in the way, no write permission) stops the server with a
 * message like any other bad setting, not with a stack trace.
 */
function keyFileIo<T>(file: string, kind: KeyKind, verb: string, action: () => T): T {
	try {
		return action();
	} catch (err) {
		const reason = (err as NodeJS.ErrnoException).code ?? String(err);
		const { what, env, file: fileEnv } = KEY_NAMES[kind];
		throw new ConfigError(
			`Cannot ${verb} the ${what} file ${file} (${reason}): set ${env}, or ${fileEnv} to a writable path`
		);
	}
}

/** Writes a secret atomically (temp file, rename) with owner-only permissions. */
export function writeOwnerOnly(file: string, secret: string): void {
	const tmp = `${file}.${process.pid}.tmp`;
	writeFileSync(tmp, secret + '\n', { mode: 0o600 });
	chmodSync(tmp, 0o600);
	renameSync(tmp, file);
}
