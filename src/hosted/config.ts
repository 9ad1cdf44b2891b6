// Hosted mode's settings (HOSTED=1), read from the environment and validated at start: a bad or
// missing one stops the server with its name. Without the OAuth app and upstream settings it is the
// hosted demo, on the embedded simulator.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, Env, PublicUrl, retentionDays, writeOwnerOnly } from '../server/config.ts';
import { SecretBoxError, parseSecretKey } from './crypto.ts';

const HostedEnv = z.object({
	DATABASE_URL: z
		.string()
		.refine(
			(v) => /^postgres(ql)?:\/\//.test(v) && URL.canParse(v),
			'expected a PostgreSQL URL (postgres://user:password@host:5432/database)'
		)
		.optional(),
	DATA_DIR: z.string().min(1).default('.data'),
	PUBLIC_URL: PublicUrl.optional(),
	SECRET_KEY: z.string().optional(),
	// Instances on one machine each call from their own address (the upstream counts per IP).
	UPSTREAM_LOCAL_ADDRESS: z
		.string()
		.refine((v) => isIP(v) !== 0, 'expected an IP address of this machine, such as 127.0.0.2')
		.optional(),
	// The OAuth app, the upstream and the port: the same rules as the single-streamer server's.
	...Env.pick({
		OAUTH_CLIENT_ID: true,
		OAUTH_CLIENT_SECRET: true,
		TIP_OAUTH_URL: true,
		TIP_API_BASE_URL: true,
		TIP_WS_URL: true,
		HOST: true,
		PORT: true
	}).shape,
	// Only to say it is not used: its format does not matter here.
	TIP_API_KEY: z.string().optional(),
	/** How many days the Activity keeps an entry (docs/activity.md). */
	ACTIVITY_RETENTION_DAYS: retentionDays()
});

export interface HostedConfig {
	/** demo: the embedded simulator with demo streamers; live: the upstream of the OAuth settings. */
	mode: 'demo' | 'live';
	host: string;
	port: number;
	databaseUrl: string | null;
	dataDir: string;
	/** The origin streamers use, without a trailing slash. */
	publicUrl: string;
	secretKey: string;
	/** The address upstream calls leave from; null or absent: the system's choice. */
	localAddress?: string | null;
	/** ACTIVITY_RETENTION_DAYS; absent: DEFAULT_RETENTION_DAYS. */
	activityRetentionDays?: number;
	/** Live only. */
	oauth: {
		issuer: string;
		clientId: string;
		clientSecret?: string;
		baseUrl: string;
		wsUrl: string;
	} | null;
}

const LIVE_KEYS = ['OAUTH_CLIENT_ID', 'TIP_OAUTH_URL', 'TIP_API_BASE_URL', 'TIP_WS_URL'] as const;

/** HOSTED=1: hosted mode; unset or 0: the single-streamer server. Anything else stops the server. */
export function hostedRequested(env: NodeJS.ProcessEnv = process.env): boolean {
	const v = env.HOSTED ?? '';
	if (v === '' || v === '0') return false;
	if (v === '1') return true;
	throw new ConfigError('Invalid environment:\n  HOSTED: expected 1 (hosted mode) or 0');
}

export function loadHostedConfig(env: NodeJS.ProcessEnv = process.env): HostedConfig {
	const raw = Object.fromEntries(
		Object.entries(env).filter(([, v]) => v !== undefined && v !== '')
	);
	const parsed = HostedEnv.safeParse(raw);
	const problems = parsed.success
		? []
		: parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
	if (!parsed.success) throw new ConfigError(`Invalid environment:\n${problems.join('\n')}`);
	const e = parsed.data;
	const live = LIVE_KEYS.some((k) => e[k]);
	if (live)
		for (const k of LIVE_KEYS)
			if (!e[k])
				problems.push(
					`  ${k}: required in hosted mode with an OAuth app (${LIVE_KEYS.filter((x) => e[x]).join(', ')} set)`
				);
	if (e.TIP_API_KEY)
		problems.push(
			'  TIP_API_KEY: not used in hosted mode (each streamer signs in with OAuth); unset it'
		);
	if (live && !e.PUBLIC_URL)
		problems.push(
			'  PUBLIC_URL: required in hosted mode with an OAuth app (the address streamers use)'
		);
	if (live && !e.SECRET_KEY)
		problems.push('  SECRET_KEY: required in hosted mode (generate one: openssl rand -base64 32)');
	if (e.SECRET_KEY)
		try {
			parseSecretKey(e.SECRET_KEY);
		} catch (err) {
			if (err instanceof SecretBoxError) problems.push(`  SECRET_KEY: ${err.message}`);
			else throw err;
		}
	if (problems.length) throw new ConfigError(`Invalid environment:\n${problems.join('\n')}`);
	return {
		mode: live ? 'live' : 'demo',
		host: e.HOST,
		port: e.PORT,
		databaseUrl: e.DATABASE_URL ?? null,
		dataDir: e.DATA_DIR,
		publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
		secretKey: e.SECRET_KEY ?? demoSecret(e.DATA_DIR),
		localAddress: e.UPSTREAM_LOCAL_ADDRESS ?? null,
		activityRetentionDays: e.ACTIVITY_RETENTION_DAYS,
		oauth: live
			? {
					issuer: e.TIP_OAUTH_URL!.replace(/\/+$/, ''),
					clientId: e.OAUTH_CLIENT_ID!,
					...(e.OAUTH_CLIENT_SECRET ? { clientSecret: e.OAUTH_CLIENT_SECRET } : {}),
					baseUrl: e.TIP_API_BASE_URL!.replace(/\/+$/, ''),
					wsUrl: e.TIP_WS_URL!
				}
			: null
	};
}

/** The hosted demo's secret: made once and kept beside its embedded database (owner-only). */
function demoSecret(dataDir: string): string {
	const file = join(dataDir, 'demo-secret-key');
	try {
		if (existsSync(file)) return readFileSync(file, 'utf8').trim();
		mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		const secret = randomBytes(32).toString('base64url');
		writeOwnerOnly(file, secret);
		return secret;
	} catch (err) {
		throw new ConfigError(
			`Cannot keep the demo secret in ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)}): set SECRET_KEY or DATA_DIR`
		);
	}
}
