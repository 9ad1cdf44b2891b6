// Each streamer's moderation rules compiled (tips' and videos'), kept in memory per streamer for
// the version last read: the Moderator (moderator.ts) decides from them, also when the store does
// not answer in time. They follow the saved rules: compiled again as soon as rules are saved (on
// any instance, heard on the push channel) or the push channel is back (a save may have been
// missed), not at the next tip, which may come while the store does not answer.
import { LRUCache } from 'lru-cache';
import { judge, type Judge } from '../../core/moderation/decision.ts';
import { judgeVideos, type VideoJudge } from '../../core/moderation/video.ts';
import type { ModerationStore } from './store.ts';

/** Streamers whose compiled rules are kept (hosted mode serves many; each compiles on demand). */
const JUDGES_KEPT = 1000;

export interface Compiled {
	version: number;
	judge: Judge;
	videos: VideoJudge;
	/** The video rules ask for a tip's amount. */
	videoAmounts: boolean;
}

export class CompiledRules {
	/** Per streamer: the rules compiled for the version last read; the least recently used go. */
	readonly #judges = new LRUCache<string, Compiled>({
		max: JUDGES_KEPT,
		dispose: (_, streamer, reason) => {
			if (reason !== 'evict') return;
			this.#watching.get(streamer)?.();
			this.#watching.delete(streamer);
		}
	});
	/** Per streamer whose rules are kept: the leave of their push messages (rules, resync). */
	readonly #watching = new Map<string, () => void>();

	constructor(
		private readonly store: Pick<ModerationStore, 'rules' | 'push'>,
		private readonly log: (message: string) => void
	) {}

	/** The streamer's rules as compiled last, without the store; undefined: none in memory. */
	inMemory(streamer: string): Compiled | undefined {
		return this.#judges.peek(streamer);
	}

	/** The streamer's rules compiled, for the version stored now. */
	async compiled(streamer: string): Promise<Compiled> {
		const { rules, version } = await this.store.rules(streamer);
		const cached = this.#judges.get(streamer);
		if (cached?.version === version) return cached;
		const compiled: Compiled = {
			version,
			judge: judge(rules),
			videos: judgeVideos(rules),
			videoAmounts: rules.videos.fromAmount !== null
		};
		this.#judges.set(streamer, compiled);
		if (!this.#watching.has(streamer)) this.#watch(streamer);
		return compiled;
	}

	#watch(streamer: string): void {
		const leave = this.store.push.subscribe(streamer, (m) => {
			if (m.type === 'rules' || m.type === 'resync')
				void this.compiled(streamer).catch((err: Error) =>
					this.log(`moderation: the rules could not be read (${err.message})`)
				);
		});
		this.#watching.set(streamer, leave);
	}
}
