// Every page with a key (the widget pages, the overlay, the dock, the editor): once its key is
// refused it stops (its card says so), then checks the key again rarely and reloads when it works
// (src/client/key-retry.ts). A browser-only part: the hosted bench's Node pages never reload.
import type { ApiClient } from '../client/api.ts';
import { keyCheck, KeyRetry } from '../client/key-retry.ts';

/**
 * Watches `api`'s refusals from now on. `path`: the stored settings as `api` reaches them
 * (`/settings`: with the overlay key; on a client based at /control, the control credential's).
 */
export function retryRefusedKey(
	api: ApiClient,
	reload: () => void = () => location.reload()
): KeyRetry {
	const retry = new KeyRetry({ check: keyCheck(api, '/settings'), reload });
	api.onKeyRefused((refusal) => retry.refused(refusal.final));
	addEventListener('pagehide', () => retry.stop());
	return retry;
}
