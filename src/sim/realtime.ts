// The realtime WebSocket of the simulated service (docs/upstream.md, realtime WebSocket): auth as
// the first message, `ready`, heartbeat pings, scope-filtered event envelopes, close codes
// 4401/4408, and the event faults (duplicate, reorder, delay, dropped sockets, silent sockets, raw
// frames).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
	CLOSE_AUTH_TIMEOUT,
	CLOSE_UNAUTHORIZED,
	eventTypesForScopes,
	type EventEnvelope
} from '../contract/index.ts';
import type { ApiKey } from './auth.ts';
import type { SimCore } from './core.ts';

export const REALTIME_PATH = '/realtime';

type CredentialKind = 'token' | 'apiKey';

interface Client {
	ws: WebSocket;
	key?: ApiKey;
	/** The credential its first message carried: a page's handoff token, or an API key. */
	kind?: CredentialKind;
	types?: Set<string>;
	heartbeat?: ReturnType<typeof setInterval>;
	authTimer?: ReturnType<typeof setTimeout>;
	/** Fault: until this time (ms) nothing is sent to this socket, pings included. */
	silentUntil?: number;
}

/** The credential a first message carries: `data.token` wins over `data.apiKey`. */
function credentialOf(text: string): { kind: CredentialKind; value: string } | null {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return null;
	}
	const data = (parsed as { data?: unknown } | null)?.data;
	if (typeof data !== 'object' || data === null) return null;
	const d = data as { token?: unknown; apiKey?: unknown };
	// A present but unusable value (empty, not a string) is an invalid credential, not a missing one.
	if ('token' in d) return { kind: 'token', value: typeof d.token === 'string' ? d.token : '' };
	if ('apiKey' in d) return { kind: 'apiKey', value: typeof d.apiKey === 'string' ? d.apiKey : '' };
	return null;
}

export class RealtimeHub {
	private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
	private readonly clients = new Set<Client>();
	/** An event held back by the reorder fault until the next one goes out. */
	private held: [EventEnvelope, string] | null = null;
	private heldTimer: ReturnType<typeof setTimeout> | null = null;
	/** Sockets that authenticated since the start, by their credential's kind. */
	readonly opened: Record<CredentialKind, number> = { token: 0, apiKey: 0 };

	constructor(private readonly core: SimCore) {
		core.broadcast = (event, tenantId) => this.publish(event, tenantId);
	}

	get heartbeatS(): number {
		return this.core.options.heartbeatS ?? 30;
	}

	/** Connected sockets that have authenticated. */
	get authenticatedCount(): number {
		return [...this.clients].filter((c) => c.key).length;
	}

	/**
	 * Authenticated sockets connected now with this kind of credential, by account (tenant id): an
	 * API key or OAuth access token (`apiKey`: a server's own socket), or a handoff token (a page's).
	 */
	authenticatedBy(kind: CredentialKind): Map<string, number> {
		const byAccount = new Map<string, number>();
		for (const c of this.clients)
			if (c.key && c.kind === kind) {
				const tenant = this.core.modelOf(c.key).tenant.id;
				byAccount.set(tenant, (byAccount.get(tenant) ?? 0) + 1);
			}
		return byAccount;
	}

	handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
		const path = new URL(req.url ?? '/', 'http://x').pathname;
		if (path !== REALTIME_PATH || Date.now() < this.core.faults.refuseUntil) {
			socket.write('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
			socket.destroy();
			return;
		}
		this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
	}

	private accept(ws: WebSocket): void {
		const client: Client = { ws };
		this.clients.add(client);
		client.authTimer = setTimeout(
			() => this.reject(client, 'auth_timeout', 'no auth message in time', CLOSE_AUTH_TIMEOUT),
			this.core.options.authTimeoutMs ?? 10_000
		);
		ws.on('message', (raw) => this.onMessage(client, raw.toString()));
		ws.on('close', () => this.forget(client));
		ws.on('error', () => this.forget(client));
	}

	private onMessage(client: Client, text: string): void {
		if (client.key) return; // after auth the server ignores client messages (pong included)
		// docs/upstream.md: the server accepts any first message that carries data.token or data.apiKey
		// (the `type: 'auth'` of AuthMessage is what clients send, not what the server demands).
		const credential = credentialOf(text);
		if (!credential)
			return this.reject(
				client,
				'missing_api_key',
				'first message must carry data.token or data.apiKey'
			);
		const key =
			credential.kind === 'token'
				? this.core.credentials.redeemHandoff(credential.value)
				: this.core.credentials.keyByValue(credential.value);
		if (!key) {
			const oauthToken = credential.value.startsWith('tpat_');
			const code = credential.kind === 'token' || oauthToken ? 'invalid_token' : 'invalid_api_key';
			return this.reject(client, code, 'the credential is not valid or has expired');
		}
		clearTimeout(client.authTimer);
		client.key = key;
		client.kind = credential.kind;
		this.opened[credential.kind] += 1;
		// Channels are derived from the scopes at connect time.
		const events = eventTypesForScopes(key.scopes);
		client.types = new Set(events);
		this.send(client, { type: 'ready', data: { events, heartbeat_s: this.heartbeatS } });
		client.heartbeat = setInterval(
			() => this.send(client, { type: 'ping', data: { t: Date.now() } }),
			this.heartbeatS * 1000
		);
	}

	private reject(client: Client, code: string, error: string, close = CLOSE_UNAUTHORIZED): void {
		this.send(client, { type: 'error', data: { code, error } });
		client.ws.close(close, code);
		this.forget(client);
	}

	private send(client: Client, message: unknown): void {
		if (this.writable(client)) client.ws.send(JSON.stringify(message));
	}

	private writable(client: Client): boolean {
		return client.ws.readyState === client.ws.OPEN && !(Date.now() < (client.silentUntil ?? 0));
	}

	private publish(event: EventEnvelope, tenantId: string): void {
		const fault = this.core.faults.takeEvent();
		const deliver = (e: EventEnvelope) => {
			this.deliver(e, tenantId);
			if (fault.duplicate) this.core.later(5, () => this.deliver(e, tenantId));
		};
		const go = () => {
			if (fault.reorder && this.held === null) {
				this.held = [event, tenantId];
				// Never hold it forever: flush after a while even if nothing follows.
				this.heldTimer = setTimeout(() => this.flushHeld(), 500);
				return;
			}
			deliver(event);
			this.flushHeld();
		};
		if (fault.delayMs > 0) this.core.later(fault.delayMs, go);
		else go();
	}

	private flushHeld(): void {
		if (this.heldTimer) clearTimeout(this.heldTimer);
		this.heldTimer = null;
		const held = this.held;
		this.held = null;
		if (held) this.deliver(...held);
	}

	/** To the sockets of the event's own account that subscribe to its type. */
	private deliver(event: EventEnvelope, tenantId: string): void {
		const text = JSON.stringify(event);
		for (const c of this.clients)
			if (
				c.key &&
				c.types?.has(event.type) &&
				this.core.modelOf(c.key).tenant.id === tenantId &&
				this.writable(c)
			)
				c.ws.send(text);
	}

	/**
	 * Fault: the sockets connected now go quiet for `ms` (no pings, no events) without closing, as
	 * over a half-open TCP connection; a client must notice by its heartbeat watchdog. Sockets
	 * opened later are unaffected; a close frame from the client is still answered. 0 lifts it.
	 */
	silence(ms: number): number {
		const until = Date.now() + ms;
		for (const c of this.clients) c.silentUntil = ms > 0 ? until : 0;
		return this.clients.size;
	}

	/** Fault: one raw text frame (malformed JSON, a bad envelope) to every authenticated socket. */
	sendRaw(text: string): number {
		let n = 0;
		for (const c of this.clients)
			if (c.key && this.writable(c)) {
				c.ws.send(text);
				n += 1;
			}
		return n;
	}

	/** Fault: every socket dies without a close frame; optionally refuse reconnects for a while. */
	dropAll(refuseMs = 0): number {
		if (refuseMs > 0) this.core.faults.refuseUntil = Date.now() + refuseMs;
		const n = this.clients.size;
		for (const c of [...this.clients]) {
			c.ws.terminate();
			this.forget(c);
		}
		return n;
	}

	/** A revoked credential closes its live sockets with 4401. */
	closeForKey(keyId: string): void {
		for (const c of [...this.clients])
			if (c.key?.id === keyId) {
				this.send(c, {
					type: 'error',
					data: { code: 'invalid_token', error: 'credential revoked' }
				});
				c.ws.close(CLOSE_UNAUTHORIZED, 'revoked');
				this.forget(c);
			}
	}

	private forget(client: Client): void {
		clearTimeout(client.authTimer);
		clearInterval(client.heartbeat);
		this.clients.delete(client);
	}

	close(): void {
		this.flushHeld();
		for (const c of [...this.clients]) {
			c.ws.terminate();
			this.forget(c);
		}
		this.wss.close();
	}
}
