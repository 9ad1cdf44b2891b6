// Secrets at rest in hosted mode: refresh tokens, access tokens and overlay keys are stored
// encrypted (AES-256-GCM) under keys derived from SECRET_KEY, each ciphertext naming the key id it
// was sealed with, so the secret can be rotated: `SECRET_KEY=new-id:secret,old-id:secret` seals with
// the first and still opens what the others sealed. Overlay keys and session tokens are also looked
// up by a keyed hash (HMAC-SHA256), never by their plain value, and compared in constant time. A
// dashboard session's CSRF token is derived from its session token (HMAC-SHA256 under a key of
// its own), so nothing more is stored for it.
import {
	createCipheriv,
	createDecipheriv,
	createHmac,
	hkdfSync,
	randomBytes,
	timingSafeEqual
} from 'node:crypto';

/** What a secret must look like: at least 32 characters (e.g. `openssl rand -base64 32`). */
export const SECRET_MIN_LENGTH = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,16}$/;

interface Key {
	id: string;
	seal: Buffer;
	hash: Buffer;
	csrf: Buffer;
	tickets: Buffer;
}

export class SecretBoxError extends Error {}

/**
 * Parses SECRET_KEY: one secret (key id `k1`), or `id:secret` pairs separated by commas, the first
 * sealing. Throws a sentence naming what is wrong (the server reports it and stops).
 */
export function parseSecretKey(value: string): Key[] {
	const parts = value
		.split(',')
		.map((p) => p.trim())
		.filter(Boolean);
	if (parts.length === 0) throw new SecretBoxError('is empty');
	const keys: Key[] = [];
	for (const part of parts) {
		const colon = part.indexOf(':');
		const [id, secret] =
			colon > 0 && parts.length > 1 ? [part.slice(0, colon), part.slice(colon + 1)] : ['k1', part];
		if (!KEY_ID.test(id))
			throw new SecretBoxError(`key id "${id.slice(0, 20)}" is not 1 to 16 of A-Z a-z 0-9 _ -`);
		if (secret.length < SECRET_MIN_LENGTH)
			throw new SecretBoxError(
				`needs at least ${SECRET_MIN_LENGTH} characters per secret (openssl rand -base64 32)`
			);
		if (keys.some((k) => k.id === id)) throw new SecretBoxError(`names key id "${id}" twice`);
		const derive = (purpose: string) =>
			Buffer.from(hkdfSync('sha256', secret, 'tip-overlay-kit', purpose, 32));
		keys.push({
			id,
			seal: derive('seal v1'),
			hash: derive('lookup hash v1'),
			csrf: derive('csrf v1'),
			tickets: derive('read tickets v1')
		});
	}
	return keys;
}

export class SecretBox {
	private readonly keys: Key[];

	constructor(secretKey: string) {
		this.keys = parseSecretKey(secretKey);
	}

	/** The key id new ciphertexts carry. */
	get currentKeyId(): string {
		return this.keys[0].id;
	}

	/** `v1.<key id>.<iv>.<ciphertext+tag>`, base64url; `context` binds it to its row and column. */
	seal(plain: string, context: string): string {
		const key = this.keys[0];
		const iv = randomBytes(12);
		const cipher = createCipheriv('aes-256-gcm', key.seal, iv);
		cipher.setAAD(Buffer.from(context));
		const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
		return `v1.${key.id}.${iv.toString('base64url')}.${body.toString('base64url')}`;
	}

	/** Opens what seal() made with the same context; throws if it was altered or the key is gone. */
	open(sealed: string, context: string): string {
		const [version, id, ivText, bodyText] = sealed.split('.');
		const key = this.keys.find((k) => k.id === id);
		if (version !== 'v1' || !key || !ivText || !bodyText)
			throw new SecretBoxError(`cannot open a secret sealed with key id "${id}"`);
		const body = Buffer.from(bodyText, 'base64url');
		const decipher = createDecipheriv('aes-256-gcm', key.seal, Buffer.from(ivText, 'base64url'));
		decipher.setAAD(Buffer.from(context));
		decipher.setAuthTag(body.subarray(body.length - 16));
		return Buffer.concat([
			decipher.update(body.subarray(0, body.length - 16)),
			decipher.final()
		]).toString('utf8');
	}

	/** Whether a ciphertext was sealed with an older key (worth sealing again). */
	isStale(sealed: string): boolean {
		return sealed.split('.')[1] !== this.currentKeyId;
	}

	/**
	 * The lookup hashes of a value under every key (the current one first): a row stores the
	 * current one; a lookup tries them all, so rotating the secret does not orphan old rows.
	 */
	lookupHashes(value: string): string[] {
		return this.keys.map(
			(k) => `${k.id}.${createHmac('sha256', k.hash).update(value).digest('base64url')}`
		);
	}

	lookupHash(value: string): string {
		return this.lookupHashes(value)[0];
	}

	/**
	 * The CSRF token of a dashboard session: what its pages send in X-CSRF-Token. A page on another
	 * site cannot read it (it is answered only to our own pages, with the session's cookie), and
	 * without SECRET_KEY it cannot be made from anything else.
	 */
	csrfToken(sessionToken: string): string {
		return csrfUnder(this.keys[0], sessionToken);
	}

	/** Whether `given` is the session's CSRF token under any key (one made before a rotation too). */
	csrfMatches(sessionToken: string, given: string): boolean {
		let match = false;
		for (const k of this.keys) if (sameSecret(csrfUnder(k, sessionToken), given)) match = true;
		return match;
	}
}

const csrfUnder = (k: Key, sessionToken: string) =>
	createHmac('sha256', k.csrf).update(sessionToken).digest('base64url');

/** Constant-time equality of two strings (after the index lookup found a candidate). */
export function sameSecret(a: string, b: string): boolean {
	const x = Buffer.from(a);
	const y = Buffer.from(b);
	return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The key of the read tickets (src/server/read-tickets.ts), under SECRET_KEY's sealing secret: the
 * same on every instance, so a ticket one handed out is good on the others.
 */
export function readTicketKey(secretKey: string): Uint8Array {
	return parseSecretKey(secretKey)[0].tickets;
}

/** A random token: 32 bytes, base64url (43 characters), usable as an overlay key or session id. */
export function randomToken(): string {
	return randomBytes(32).toString('base64url');
}
