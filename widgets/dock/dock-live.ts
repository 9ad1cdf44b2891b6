// The dock's use of the push channel (GET /control/live, docs/push-channel.md): which messages make it
// read what. The channel itself (src/client/live.ts: a WebSocket with reconnect and a watchdog) is handed in
// as `OpenLive`, so the dock does not care how it is read. Its messages are hints without viewer
// text: a decision changed (another dock approved or rejected a held tip or video), the rules were
// saved, or the channel (re)connected and may have missed some (`hello`, `resync`).
import type { LiveMessage } from '../../src/contract/index.ts';
import type { Snapshot } from './dock-model.ts';

/** The channel's state, for the dock's connection line. */
export type LiveState = 'connecting' | 'open' | 'down';

/** Opens the channel; answers its close. */
export type OpenLive = (
	onMessage: (m: LiveMessage) => void,
	onState: (state: LiveState) => void
) => () => void;

/** A part of the dock loaded later (the Activity): it hears the channel, and closes with the dock. */
export interface DockPart {
	onLive(m: LiveMessage): void;
	close(): void;
}

export interface LiveReads {
	snapshots: Snapshot[];
	rules: boolean;
}

/**
 * What a message makes the dock read again. Of what the channel speaks of, only moderation changes
 * the dock, so "read everything" after a (re)connect is everything moderation changes: the TTS
 * queue (held tips, badges), its history (masked messages), the media queue (held videos, badges)
 * and the rules; the realtime connection has its own resync for the rest. A video's decision
 * (`queue: 'media'`) changes the media queue only; a tip's may settle its video too (a video held
 * only with its tip is approved or rejected with it), so both queues are read.
 */
export function liveReads(m: LiveMessage): LiveReads {
	switch (m.type) {
		case 'decision':
			return { snapshots: m.queue === 'media' ? ['media'] : ['tts', 'media'], rules: false };
		case 'rules':
			return { snapshots: [], rules: true };
		// Stored settings (the widgets' look) change nothing the dock shows: no upstream read.
		// Thanks in chat changes the Chat section only (readsChat); the Activity and the chat
		// commands read their own (activity.svelte.ts, commands.svelte.ts).
		case 'settings':
		case 'chat':
		case 'activity':
		case 'commands':
			return { snapshots: [], rules: false };
		default:
			return { snapshots: ['tts', 'ttsHistory', 'media'], rules: true };
	}
}

/** The chat's status is read again on its own message and after a (re)connect (`hello`, `resync`). */
export function readsChat(m: LiveMessage): boolean {
	return m.type === 'chat' || m.type === 'hello' || m.type === 'resync';
}
