// One streamer's token endpoint as `npm start` runs it (src/main.ts picks this mode): sets up the
// OAuth connection, builds the widgets when they are stale, listens, checks what the upstream key
// may do and prints the URLs to paste into OBS. In demo mode, main.ts starts the embedded simulator
// and hands it in (this folder does not import src/sim).
import { readFile } from 'node:fs/promises';
import { Me, Overlay } from '../contract/index.ts';
import { WIDGET_PAGES } from './app.ts';
import { DIST, ensureBundle } from './build.ts';
import { ConfigError, storeNewKey, type Config, type Upstream } from './config.ts';
import { HttpError } from './http-error.ts';
import { setupOAuth, type DemoOAuthServer, type OAuthSetup } from './oauth-setup.ts';
import { serveApp } from './serve.ts';
import { FileActivityStore } from './activity/file-store.ts';
import { ActivityRecorder } from './activity/recorder.ts';
import { moderationFile, type ModerationStore } from './moderation/store.ts';
import { settingsFile, type SettingsStore } from './settings/store.ts';
import { chatFile, type ChatStore } from './chat/store.ts';
import { commandsFile, type CommandsStore } from './commands/store.ts';
import { MemoryPushChannel } from './live/push-channel.ts';
import type { AppOptions } from './app-options.ts';
import type { UpstreamClient } from './upstream.ts';

/** The scopes the widgets and the dock use (TTS, media, counters, overlays and goals, tipping). */
export const NEEDED_SCOPES = {
	'tts:read': 'the TTS player cannot read the queue',
	'tts:control': 'the TTS player cannot claim and finish tips',
	'media:read': 'the media player cannot read the queue',
	'media:control': 'the media player cannot claim and finish videos',
	'counters:manage': 'counters cannot be shown',
	'overlays:manage': 'overlays, tip goals and celebrations will not work',
	'tipping:control': "the dock's Open / Close tipping will be refused",
	'chat:write': "thanks in chat and the dock's Send to chat will be refused",
	'commands:manage': "the dock's Commands cannot be created, and no chat command is heard"
} as const;

/** The embedded simulator main.ts started for demo mode: what the token endpoint needs of it. */
export interface DemoSimulator {
	/** Its origin: the preview's demo actions steer it through its control API. */
	origin: string;
	/** Its OAuth server, where the demo app is registered so that Connect can be tried. */
	oauth: DemoOAuthServer;
	close(): Promise<void>;
}

/**
 * Starts the token endpoint in front of `upstream` and stays up until SIGINT or SIGTERM. `demo` is
 * the embedded simulator in demo mode (then `upstream` is its API, with the demo key).
 */
export async function launchSingle(
	config: Config,
	upstream: Upstream,
	checkSettings: AppOptions['checkSettings'],
	demo?: DemoSimulator
): Promise<void> {
	let oauth: OAuthSetup | null = null;
	if (demo) oauth = await setupOAuth(config, upstream.baseUrl, demo.oauth);
	else
		try {
			oauth = await setupOAuth(config, upstream.baseUrl);
		} catch (err) {
			console.error(`OAUTH_TOKEN_FILE: ${(err as Error).message}`);
			process.exit(2);
		}
	const closeSim = demo?.close ?? null;
	const simulatorOrigin = demo?.origin;

	if (!config.skipBuild) await ensureBundle();
	const { moderation, settings, chat, commands } = fileStores(config);
	const activity = activityRecorder(config);

	const served = await serveApp({
		mode: config.mode,
		upstream,
		overlayKey: config.overlayKey,
		controlKey: config.controlKey,
		newControlKey: newControlKey(config),
		moderation,
		settings,
		chat,
		activity,
		commands,
		checkSettings,
		dist: DIST,
		host: config.host,
		port: config.port,
		allowedHosts: config.allowedHosts,
		publicOrigin: config.publicOrigin ?? undefined,
		simulatorOrigin,
		oauth: oauth?.connection
	}).catch(cannotListen(config.port));
	const redirectUri = oauth?.listening(
		new URL(served.origin).port ? Number(new URL(served.origin).port) : config.port
	);
	// OAuth only and not connected yet: there is nothing to ask the upstream until Connect.
	const waitingForConnect =
		!upstream.apiKey && oauth && (await oauth.connection.status()).state !== 'connected';
	if (waitingForConnect)
		console.log('Not connected with OAuth yet: open the preview below and press Connect.');
	const overlays = waitingForConnect ? [] : await describeUpstream(served.upstream, config.mode);
	const { origin, server } = served;
	console.log(await startupText(config, origin, overlays, redirectUri));

	const stop = () => {
		server.close();
		void closeSim?.().finally(() => process.exit(0));
		if (!closeSim) process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

/** A server that cannot listen stops the process, naming the port if it is taken (main.ts too). */
export function cannotListen(port: number): (err: NodeJS.ErrnoException) => never {
	return (err) => {
		console.error(
			err.code === 'EADDRINUSE'
				? `Invalid PORT: ${port} is already in use`
				: `Could not start: ${err.message}`
		);
		process.exit(2);
	};
}

/** What `npm start` prints once it listens: the mode, the URLs to open or paste into OBS. */
async function startupText(
	config: Config,
	origin: string,
	overlays: Overlay[],
	redirectUri: string | undefined
): Promise<string> {
	const built = async (name: string) =>
		(await readFile(`${DIST}/${name}.html`).catch(() => null)) !== null;
	// Behind a reverse proxy the URLs are the address browsers use (PUBLIC_URL).
	const shown = config.publicOrigin ?? origin;
	const link = async (page: string, path: string, key = config.overlayKey) =>
		(await built(page))
			? `${shown}${path}?key=${encodeURIComponent(key)}`
			: 'not in this build yet';
	const lines = [
		`Tip Overlay Kit running in ${config.mode} mode${config.mode === 'demo' ? ' (embedded simulator, no account needed)' : ''}`,
		`  Listening on ${origin}${config.publicOrigin ? `, reached at ${config.publicOrigin}` : ''}`,
		'',
		`  Preview (open in your browser):  ${await link('preview', '/preview')}`,
		'',
		'  Widgets (OBS browser source URLs):',
		...(await Promise.all(
			WIDGET_PAGES.map(
				async (w) => `    ${w.padEnd(12)} ${await link(`widget-${w}`, `/widget/${w}`)}`
			)
		)),
		...(overlays.length
			? [
					'',
					'  Overlays:',
					...(await Promise.all(
						overlays.map(
							async (o) =>
								`    ${o.name} (${o.width}x${o.height})  ${await link('overlay', `/overlay/${o.id}`)}`
						)
					))
				]
			: []),
		'',
		`  Dock (OBS: Docks > Custom Browser Docks): ${await link('dock', '/dock', config.controlKey)}`,
		'    Its key can skip, remove and pause: keep it in the dock, never in a browser source.',
		`  Settings editor (your browser; the dock links to it): ${await link('editor', '/editor', config.controlKey)}`,
		'    Looks, tiers, sounds of every widget and overlay, stored here: OBS sources follow a save.',
		...(redirectUri
			? [
					'',
					`  Connect with OAuth: press Connect in the preview (redirect URI ${redirectUri}${config.oauth ? `, token kept in ${config.oauth.tokenFile}` : ', demo app on the simulator'})`
				]
			: []),
		'',
		'  Keep these URLs private: the key in them lets a page use your overlays.'
	];
	return lines.join('\n');
}

/**
 * The moderation, settings, chat and commands files, publishing on one push channel (live/push-channel.ts).
 * A moderation or chat file that cannot be read stops the server naming MODERATION_FILE or
 * CHAT_FILE; a damaged settings file is reported, moved aside and what it held before the damage loaded
 * (settings/store.ts):
 * never a stop.
 */
function fileStores(config: Config): {
	moderation: ModerationStore;
	settings: SettingsStore;
	chat: ChatStore;
	commands: CommandsStore;
} {
	const push = new MemoryPushChannel();
	const settings = settingsFile(config.settingsFile, push);
	const open = <T>(name: string, make: () => T): T => {
		try {
			return make();
		} catch (err) {
			console.error(`${name}: ${(err as Error).message}`);
			process.exit(2);
		}
	};
	return {
		moderation: open('MODERATION_FILE', () => moderationFile(config.moderationFile, push)),
		settings,
		chat: open('CHAT_FILE', () => chatFile(config.chatFile, push)),
		commands: open('COMMANDS_FILE', () => commandsFile(config.commandsFile, push))
	};
}

/** The Activity's day files in ACTIVITY_DIR; one that cannot be read stops the server naming it. */
function activityRecorder(config: Config): ActivityRecorder {
	try {
		const store = new FileActivityStore({ dir: config.activityDir });
		return new ActivityRecorder({ store, retentionDays: config.activityRetentionDays });
	} catch (err) {
		console.error(`ACTIVITY_DIR: ${(err as Error).message}`);
		process.exit(2);
	}
}

/**
 * POST /control/new-key: a new control key in CONTROL_KEY_FILE. A key set by CONTROL_KEY would come
 * back at the next start, so then the dock is told to change it there instead.
 */
function newControlKey(config: Config): () => Promise<string> {
	const file = config.controlKeyFile;
	return async () => {
		if (file === null)
			throw new HttpError(
				409,
				'control_key_in_environment',
				'the control key is set by CONTROL_KEY: change it there and restart the server'
			);
		try {
			let key: string;
			do key = storeNewKey(file, 'control');
			while (key === config.overlayKey);
			return key;
		} catch (err) {
			// The old key stays in force; the message names the file and the variables to set.
			if (err instanceof ConfigError) throw new HttpError(500, 'key_not_stored', err.message);
			throw err;
		}
	};
}

/** Live mode: who the key belongs to and what it may do; both modes: the overlays to list. */
async function describeUpstream(client: UpstreamClient, mode: 'live' | 'demo'): Promise<Overlay[]> {
	try {
		const meRes = await client.call('GET', '/me');
		const me = Me.safeParse(await meRes.json().catch(() => null));
		if (!me.success) {
			console.warn(
				`Warning: GET /me answered ${meRes.status}; check TIP_API_KEY and TIP_API_BASE_URL.`
			);
			return [];
		}
		const scopes = me.data.key.scopes;
		if (mode === 'live') {
			console.log(
				`Upstream: ${me.data.tenant.name} (${me.data.tenant.currency}), key "${me.data.key.name}" with scopes: ${scopes.join(', ')}`
			);
			const needed = Object.keys(NEEDED_SCOPES);
			const extra = scopes.filter((s) => !needed.includes(s));
			if (extra.length)
				console.warn(
					`Warning: the key carries scopes the overlay does not need (${extra.join(', ')}). It needs only: ${needed.join(', ')}.`
				);
			for (const [scope, effect] of Object.entries(NEEDED_SCOPES))
				if (!scopes.includes(scope)) console.warn(`Warning: the key lacks ${scope}: ${effect}.`);
		}
		if (!scopes.includes('overlays:manage')) return [];
		const res = await client.call('GET', '/overlays');
		const body = (await res.json().catch(() => null)) as { overlays?: unknown[] } | null;
		return (body?.overlays ?? []).flatMap((o) => {
			const parsed = Overlay.safeParse(o);
			return parsed.success ? [parsed.data] : [];
		});
	} catch (err) {
		console.warn(
			`Warning: the upstream could not be reached (${err instanceof Error ? err.message : err}).`
		);
		return [];
	}
}
