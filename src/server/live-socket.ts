// The push channel over a WebSocket (src/client/live-socket.ts says why pages use one): an upgrade
// of GET /live or GET /control/live is bridged to the app's own event-stream route, so the key
// checks, the streamer's isolation and the stream limits are those of routes/live.ts. The page's
// first message carries its key header (a browser's WebSocket cannot send one); the upgrade's own
// Host, Origin, Sec-Fetch-Site, Cookie and client address go along. Node only, like serve.ts.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

type Fetch = (req: Request, env?: unknown) => Response | Promise<Response>;

const PATHS = new Set(['/live', '/control/live']);
/** The credential headers a page may send in its first message; nothing else is taken from it. */
const CREDENTIALS = ['x-overlay-key', 'x-control-key', 'x-csrf-token'];
/** Of the upgrade request, what the route's checks read. */
const PASSED = ['host', 'origin', 'sec-fetch-site', 'cookie', 'x-forwarded-for', 'user-agent'];
const AUTH_TIMEOUT_MS = 10_000;

/** Answers the closing of every push-channel socket (the server's close waits for none of them). */
export function attachLiveSockets(server: Server, fetch: Fetch): () => void {
	const sockets = new WebSocketServer({ noServer: true, maxPayload: 4096 });
	server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
		const path = (req.url ?? '').split('?')[0];
		if (!PATHS.has(path)) return void socket.destroy();
		sockets.handleUpgrade(req, socket, head, (ws) => bridge(ws, req, path, fetch));
	});
	return () => {
		for (const ws of sockets.clients) ws.terminate();
		sockets.close();
	};
}

function bridge(ws: WebSocket, req: IncomingMessage, path: string, fetch: Fetch): void {
	const timer = setTimeout(() => ws.close(4408, 'no auth message'), AUTH_TIMEOUT_MS);
	ws.once('message', (raw) => {
		clearTimeout(timer);
		void open(ws, req, path, fetch, credentialsOf(String(raw)));
	});
}

async function open(
	ws: WebSocket,
	req: IncomingMessage,
	path: string,
	fetch: Fetch,
	credentials: Record<string, string>
): Promise<void> {
	const headers = new Headers(credentials);
	for (const name of PASSED) {
		const value = req.headers[name];
		if (typeof value === 'string') headers.set(name, value);
	}
	headers.set('accept', 'text/event-stream');
	const host = req.headers.host ?? 'localhost';
	let res: Response;
	try {
		res = await fetch(new Request(`http://${host}${path}`, { headers }), {
			incoming: req,
			outgoing: undefined
		});
	} catch {
		return void ws.close(1011, 'the push channel failed');
	}
	if (res.status !== 200 || !res.body) {
		ws.send(JSON.stringify({ type: 'refused', status: res.status, body: await res.text() }));
		return void ws.close(res.status === 401 ? 4401 : 4000, 'refused');
	}
	const reader = res.body.getReader();
	ws.on('close', () => void reader.cancel().catch(() => {}));
	ws.send(JSON.stringify({ type: 'open' }));
	const decoder = new TextDecoder();
	for (;;) {
		const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
		if (done) break;
		if (ws.readyState === ws.OPEN) ws.send(decoder.decode(value, { stream: true }));
	}
	ws.close(1000, 'the stream ended');
}

/** The credential headers of the first message, and no other field. */
function credentialsOf(text: string): Record<string, string> {
	type AuthMessage = { type?: unknown; headers?: Record<string, unknown> } | null;
	let message: AuthMessage;
	try {
		message = JSON.parse(text) as AuthMessage;
	} catch {
		return {};
	}
	const out: Record<string, string> = {};
	if (message?.type !== 'auth' || typeof message.headers !== 'object' || !message.headers)
		return out;
	for (const [name, value] of Object.entries(message.headers))
		if (CREDENTIALS.includes(name.toLowerCase()) && typeof value === 'string')
			out[name.toLowerCase()] = value;
	return out;
}
