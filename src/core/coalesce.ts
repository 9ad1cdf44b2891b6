// One run at a time of something asked for again and again (a read after each push channel
// message): a call while a run is under way asks for one more run after it, however many calls
// came meanwhile, and returns at once. Pure of any timer.

export function coalesced(run: () => Promise<void>): () => Promise<void> {
	let running = false;
	let again = false;
	return async () => {
		if (running) {
			again = true;
			return;
		}
		running = true;
		try {
			do {
				again = false;
				await run();
			} while (again);
		} finally {
			running = false;
		}
	};
}
