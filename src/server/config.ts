// The token endpoint's configuration, read from the environment in one place and validated with zod.
// The upstream API key lives here and in the upstream client only; nothing a browser receives is
// built from this object except through explicit schemas that have no room for the key.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

export class ConfigError extends Error {}

const OVERLAY_KEY = /^[A-Za-z0-9_-]{16,128}$/;

const Env = z.object({
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
		.regex(OVERLAY_KEY, 'expected 16 to 128 characters of A-Z a-z 0-9 _ -')
		.optional(),
	OVERLAY_KEY_FILE: z.string().min(1).default('.overlay-key'),
	/** Extra names this server may be reached by (comma-separated), for the Host header check. */
	ALLOWED_HOSTS: z.string().default(''),
	DEMO_TRAFFIC: z
		.string()
		.regex(/^\d+(\.\d+)?$/, 'expected demo events per minute (0 to 600)')
		.transform(Number)
		.pipe(z.number().max(600, 'expected demo events per minute (0 to 600)'))
		.default(4),
	/** 1: serve dist/ as it is, even when older than its sources (tests, read-only checkouts). */
	SKIP_BUILD: z.enum(['0', '1'], { error: 'expected 1 (do not build) or 0' }).default('0')
});

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

export interface Config {
	mode: 'live' | 'demo';
	/** Absent in demo mode until the embedded simulator has started. */
	upstream: Upstream | null;
	host: string;
	port: number;
	overlayKey: string;
	allowedHosts: string[];
	demoTraffic: number;
	/** Serve the bundle as it is instead of rebuilding it when stale (SKIP_BUILD=1). */
	skipBuild: boolean;
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
	if (e.TIP_API_KEY) {
		const missing = (['TIP_API_BASE_URL', 'TIP_WS_URL'] as const).filter((k) => !e[k]);
		if (missing.length)
			throw new ConfigError(
				`Invalid environment:\n${missing.map((k) => `  ${k}: required when TIP_API_KEY is set (live mode)`).join('\n')}`
			);
		upstream = {
			baseUrl: e.TIP_API_BASE_URL!.replace(/\/+$/, ''),
			wsUrl: e.TIP_WS_URL!,
			apiKey: e.TIP_API_KEY
		};
	}
	return {
		mode: upstream ? 'live' : 'demo',
		upstream,
		host: e.HOST,
		port: e.PORT,
		overlayKey: e.OVERLAY_KEY ?? persistentOverlayKey(e.OVERLAY_KEY_FILE),
		allowedHosts: e.ALLOWED_HOSTS.split(',')
			.map((h) => h.trim().toLowerCase())
			.filter(Boolean),
		demoTraffic: e.DEMO_TRAFFIC,
		skipBuild: e.SKIP_BUILD === '1'
	};
}

/**
 * The overlay key from a local git-ignored file, created with a CSPRNG on first start so that OBS
 * URLs stay the same across restarts. Written atomically with owner-only permissions.
 */
export function persistentOverlayKey(file: string): string {
	// A file system error (a directory in the way, no write permission) stops the server with a
	// message like any other bad setting, not with a stack trace.
	const io = <T>(what: string, action: () => T): T => {
		try {
			return action();
		} catch (err) {
			const reason = (err as NodeJS.ErrnoException).code ?? String(err);
			throw new ConfigError(
				`Cannot ${what} the overlay key file ${file} (${reason}): set OVERLAY_KEY, or OVERLAY_KEY_FILE to a writable path`
			);
		}
	};
	if (existsSync(file)) {
		const key = io('read', () => readFileSync(file, 'utf8')).trim();
		if (!OVERLAY_KEY.test(key))
			throw new ConfigError(
				`Invalid overlay key file ${file}: expected 16 to 128 characters of A-Z a-z 0-9 _ - (delete it to make a new one)`
			);
		return key;
	}
	const key = randomBytes(24).toString('base64url');
	const tmp = `${file}.${process.pid}.tmp`;
	io('write', () => {
		writeFileSync(tmp, key + '\n', { mode: 0o600 });
		chmodSync(tmp, 0o600);
		renameSync(tmp, file);
	});
	return key;
}
