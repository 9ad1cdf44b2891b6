// What createApp (app.ts) is given: the mode, the upstream client, the overlay key and what the
// runtime provides. Apart from app.ts so the route modules can each take the part they use.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ReadLimits } from '../core/read-allowance.ts';
import type { SettingsValues } from '../contract/index.ts';
import type { ChatStore } from './chat/store.ts';
import type { Thanker } from './chat/thanker.ts';
import type { CommandsStore } from './commands/store.ts';
import type { EventTap } from './commands/tap.ts';
import type { ModerationStore } from './moderation/store.ts';
import type { ActivityRecorder } from './activity/recorder.ts';
import type { SettingsStore } from './settings/store.ts';
import type { OAuthConnection } from './oauth-client.ts';
import type { FailureLimiter } from './security.ts';
import type { UpstreamClient } from './upstream.ts';
import type { ControlAccess, KeyRefusal } from './caller.ts';
import type { ViewSource } from './intake/page-reads.ts';

export interface AppOptions {
	mode: 'live' | 'demo';
	upstream: UpstreamClient;
	overlayKey: string;
	allowedHosts?: readonly string[];
	/** The built page's HTML, or null when the build does not contain it. */
	readPage: (name: string) => Promise<string | null>;
	/** Serves built static files (assets, demo videos); absent in tests. */
	staticFiles?: MiddlewareHandler;
	/** Client address, for slowing down wrong keys and for the read allowance. */
	clientAddress?: (c: Context) => string;
	/** The raw request target before URL normalisation, when the runtime has it. */
	rawTarget?: (c: Context) => string | undefined;
	/** Counts wrong keys per client (security.ts); absent: one of its own. */
	failures?: FailureLimiter;
	/** A request refused for its key (routes/key-guard.ts): logged in single mode, counted in hosted. */
	keyRefused?: (answer: KeyRefusal, client: string) => void;
	/**
	 * PUBLIC_URL's origin (hosted mode; single mode when set): an `Origin` our pages send even where
	 * a reverse proxy reaches us under another Host. Any origin not ours (security.ts, crossSite) is
	 * refused before its key is read.
	 */
	publicOrigin?: string;
	/**
	 * Single mode: ALLOWED_HOSTS' names, whose `http(s)://name` (standard port) is our own origin
	 * too, as a reverse proxy on that name shows our pages.
	 */
	ownHosts?: readonly string[];
	/** Demo mode: the embedded simulator's origin, for its demo and fault controls. */
	simulatorOrigin?: string;
	/**
	 * Hosted mode: the overlay key names the streamer, whose upstream client serves the request
	 * (`upstream` and `overlayKey` above are then unused for /token and /api). `replaced`: a key
	 * the streamer replaced or turned off.
	 */
	resolveKey?: (
		key: string
	) => Promise<{ upstream: UpstreamClient; streamer: string } | { replaced: true } | null>;
	/**
	 * The streamer's intake (intake/intake.ts), whose live view answers the pages' reads it can
	 * (routes/proxy.ts) and whose state /healthz shows; absent or null: every read goes upstream.
	 */
	intakeOf?: (streamer: string) => ViewSource | null;
	/** What a reader may read through /api before it is answered 429 (read-allowance.ts). */
	readLimits?: ReadLimits;
	/** A read was refused 429 for its key's (hosted: streamer's) or its address's allowance. */
	readRefused?: (streamer: string, by: 'key' | 'address') => void;
	/**
	 * The key read tickets are made and checked with (read-tickets.ts). Hosted mode: derived from
	 * SECRET_KEY, so every instance accepts the others' tickets. Absent: a random one per process.
	 */
	readTicketKey?: Uint8Array;
	/** Hosted mode's own pages and actions (hosted/routes.ts), ahead of the widget routes. */
	routes?: Hono;
	/** Hosted mode: what /healthz reports instead of the one upstream's reachability. */
	health?: () => Promise<Record<string, unknown>>;
	/** Connect with OAuth (oauth-routes.ts); hasApiKey: a key is used while not connected. */
	oauth?: { connection: OAuthConnection; hasApiKey: boolean };
	/**
	 * Single mode: the dock's control key (X-Control-Key), apart from the overlay key: only it
	 * reaches /control (skip, remove, pause, replay, visibility, tipping). Absent: no /control.
	 * The key at start: after POST /control/new-key the app holds the one newControlKey returned.
	 */
	controlKey?: string;
	/** Single mode: makes and stores a new control key; the old one stops at once. */
	newControlKey?: () => Promise<string>;
	/**
	 * Hosted mode: who a /control request acts for, by its X-Control-Key or by the signed-in
	 * session's cookie with X-CSRF-Token; null: neither (401).
	 */
	resolveControl?: (c: Context) => Promise<ControlAccess | { replaced: true } | null>;
	/** Hosted mode: the CSRF token of the request's signed-in session (GET /control/session). */
	sessionCsrf?: (c: Context) => Promise<string | null>;
	/**
	 * Runs one dock action of a streamer at a time (hosted: across instances), so that two docks
	 * pressing at once never skip or replay twice. Default: one at a time in this process.
	 */
	controlLock?: <T>(streamer: string, action: () => Promise<T>) => Promise<T>;
	/**
	 * Where the moderation rules and decisions live: single mode's file, hosted mode's
	 * database. Absent: kept in memory (tests).
	 */
	moderation?: ModerationStore;
	/**
	 * Single mode: where thanks in chat keep their settings and once-per-tip ledger (the file). The
	 * app's thanker (chat/thanker.ts) sends what it holds owed at start. Absent: kept in memory.
	 */
	chat?: ChatStore;
	/** Hosted mode: the instance's thanker, on the database; its owner resumes and closes it. */
	thanker?: Thanker;
	/**
	 * Where the stored settings live: single mode's file, hosted mode's database.
	 * Absent: kept in memory (tests).
	 */
	settings?: SettingsStore;
	/**
	 * The Activity's recorder (activity/recorder.ts): its /control routes, and the moderation it
	 * records. Absent: no Activity routes.
	 */
	activity?: ActivityRecorder;
	/**
	 * The problems of a target's settings, one sentence each naming the parameter (empty: they can
	 * be stored): widgets/settings/schemas.ts checkSettings, handed in by src/main.ts (this layer
	 * does not import widgets). Absent: a save answers 503 no_schemas.
	 */
	checkSettings?: (target: string, values: SettingsValues) => string[];
	/** Where the chat commands' settings and runs are kept (commands/store.ts); absent: memory. */
	commands?: CommandsStore;
	/** Where the intakes hand the events they hear (commands/tap.ts): the commands act on theirs. */
	events?: EventTap;
	/** Hosted mode: a streamer's upstream client outside a request (a chat command's run). */
	upstreamOf?: (streamer: string) => UpstreamClient;
}
