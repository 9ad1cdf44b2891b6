// Sign-ins in progress (signin.ts): between "Connect your tip page" and the upstream's callback, the
// OAuth `state` the browser was sent off with (stored as its keyed hash) and the PKCE verifier
// that goes with it (sealed). They live in the database, not in memory, so that the callback may
// land on any instance. Each is taken once; expired ones are deleted whenever a new one begins.
import { addExpiring, type StoreContext } from './store-context.ts';

/** The secret box's context for a sealed verifier. */
const SEALED_AS = 'sign_in';

export class SignInAttempts {
	constructor(private readonly ctx: StoreContext) {}

	async begin(state: string, verifier: string, ttlMs: number): Promise<void> {
		const { box } = this.ctx;
		const row = { state_hash: box.lookupHash(state), verifier: box.seal(verifier, SEALED_AS) };
		await addExpiring(this.ctx, 'sign_in_attempts', row, ttlMs);
	}

	/** The attempt's PKCE verifier, once: a second callback with the same state gets null. */
	async take(state: string): Promise<string | null> {
		const { box } = this.ctx;
		const row = await this.ctx.db
			.deleteFrom('sign_in_attempts')
			.where('state_hash', 'in', box.lookupHashes(state))
			.returning(['verifier', 'expires_at'])
			.executeTakeFirst();
		if (!row || new Date(row.expires_at) <= this.ctx.now()) return null;
		return box.open(row.verifier, SEALED_AS);
	}
}
