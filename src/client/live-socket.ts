// The push channel's transport: a WebSocket to the token endpoint (GET /live or /control/live
// upgraded), whose text frames are the server-sent event stream's own text. It is handed to
// LiveChannel (live.ts) as the Response of a fetch would be, a body of `data:` lines.
// Why a WebSocket and not a fetch of the event stream: a browser keeps at most 6 HTTP/1.1
// connections to one origin for all its pages together (OBS's browser sources and docks share
// one), and a stream held open by every page would leave none for their reads and claims once
// six pages were open. WebSockets do not count against that pool.
//
// Protocol (src/server/live-socket.ts): the page sends `{ "type": "auth", "headers": { ... } }`
// first (its key header: a WebSocket cannot carry one, and a URL would put it in logs); the server
// answers `{ "type": "open" }` or `{ "type": "refused", "status": 401, ... }`, then the stream.

/** Opens `path` (same origin) as a WebSocket and answers when the server accepted or refused it. */
export function openLiveSocket(
	path: string,
	headers: Record<string, string>,
	signal: AbortSignal
): Promise<Response> {
	const url = new URL(path, location.href);
	url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
	return new Promise<Response>((resolve, reject) => {
		const ws = new WebSocket(url.href);
		let stream: ReadableStreamDefaultController<Uint8Array> | null = null;
		const encoder = new TextEncoder();
		const end = () => {
			try {
				stream?.close();
			} catch {
				// already closed or cancelled
			}
			stream = null;
		};
		signal.addEventListener('abort', () => (ws.close(), end()), { once: true });
		ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', headers }));
		ws.onerror = () => reject(new Error('the push channel could not connect'));
		ws.onclose = () => {
			end();
			reject(new Error('the push channel closed'));
		};
		ws.onmessage = (e: MessageEvent) => {
			const text = String(e.data);
			if (stream) return stream.enqueue(encoder.encode(text));
			const first = answerOf(text);
			if (first.type !== 'open') {
				ws.close();
				return resolve(refusedAnswer(first));
			}
			const body = new ReadableStream<Uint8Array>({
				start: (controller) => void (stream = controller),
				cancel: () => ws.close()
			});
			resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
		};
	});
}

interface FirstAnswer {
	type?: string;
	status?: number;
	/** A refusal's body as the route answered it (its `code` tells a wrong key from a limit). */
	body?: string;
}

function answerOf(text: string): FirstAnswer {
	try {
		return JSON.parse(text) as FirstAnswer;
	} catch {
		return {};
	}
}

/** The refusal as the route's own answer: its status and its JSON body. */
function refusedAnswer(first: FirstAnswer): Response {
	const status = Number.isInteger(first.status) && first.status! >= 400 ? first.status! : 502;
	const body = typeof first.body === 'string' ? first.body : null;
	return new Response(body, { status, headers: { 'content-type': 'application/json' } });
}
