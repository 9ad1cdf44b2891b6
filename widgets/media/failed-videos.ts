// The videos this copy could not play, for the player's list of failures: the latest last, at
// most FAILED_SHOWN, each marked given up once this copy stops trying it.
import type { QueueMediaItem } from '../../src/contract/index.ts';
import type { FailedVideo } from './view.ts';

const FAILED_SHOWN = 10;

export class FailedVideos {
	readonly #failures = new Map<string, FailedVideo>();
	readonly #attempts: number;

	/** `attempts`: how many times a copy tries one video. */
	constructor(attempts: number) {
		this.#attempts = attempts;
	}

	/** Notes a failed attempt; returns the list to show, the latest first. */
	note(media: QueueMediaItem, reason: string, permanent: boolean): FailedVideo[] {
		const prior = this.#failures.get(media.order_id);
		this.#failures.delete(media.order_id);
		this.#failures.set(media.order_id, {
			orderId: media.order_id,
			label: media.video_title ?? media.media_url,
			reason,
			givenUp: permanent || (prior !== undefined && !prior.givenUp) || this.#attempts <= 1
		});
		while (this.#failures.size > FAILED_SHOWN)
			this.#failures.delete(this.#failures.keys().next().value as string);
		return [...this.#failures.values()].reverse();
	}
}
