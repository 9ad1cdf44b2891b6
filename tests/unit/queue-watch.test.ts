// What makes the TTS and media players read their queue again from the push channel
// (widgets/shared/queue-watch.ts): a decision changed or the channel came back, never news that
// leaves the queue as it is (stored settings, a thanks posted in chat, the Activity's and the chat
// commands' changes), so an OBS source makes no upstream read for them.
import { describe, expect, it } from 'vitest';
import { readsAgain } from '../../widgets/shared/queue-watch.ts';

describe('readsAgain', () => {
	it('reads on a decision, saved rules and a resync, and on a hello after a first read', () => {
		expect(readsAgain({ type: 'decision', order_id: 'tip_1_a' }, 1)).toBe(true);
		expect(readsAgain({ type: 'rules', version: 2 }, 1)).toBe(true);
		expect(readsAgain({ type: 'resync' }, 0)).toBe(true);
		expect(readsAgain({ type: 'hello' }, 1)).toBe(true);
		expect(readsAgain({ type: 'hello' }, 0)).toBe(false);
	});

	it('does not read for stored settings, the chat, the Activity or the chat commands', () => {
		expect(readsAgain({ type: 'settings', target: 'tts', version: 3 }, 1)).toBe(false);
		expect(readsAgain({ type: 'chat' }, 1)).toBe(false);
		expect(readsAgain({ type: 'activity', ids: ['tip_tip_1_a'] }, 1)).toBe(false);
		expect(readsAgain({ type: 'commands' }, 1)).toBe(false);
	});
});
