// Ids shaped as the documents shape them: `tip_<number>_<suffix>`, `evt_...`, `o_` + 8 hex.
import { randomBytes } from 'node:crypto';

export function randomToken(bytes = 12): string {
	return randomBytes(bytes).toString('base64url');
}

export function randomHex(chars: number): string {
	return randomBytes(Math.ceil(chars / 2))
		.toString('hex')
		.slice(0, chars);
}

export class IdSource {
	private n = 1000;

	/** A tip's order id; media requested directly get `med_` so consumers never assume `tip_`. */
	order(prefix: 'tip' | 'med' = 'tip'): string {
		this.n += 1;
		return `${prefix}_${this.n}_${randomHex(6)}`;
	}

	event(): string {
		return `evt_${randomToken(12)}`;
	}
}
