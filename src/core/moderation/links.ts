// Links in a message: http(s)://, www., and bare domains with a common top-level domain, also with
// the dot spelled out or wrapped (`example dot com`, `example(.)com`, `example [dot] com`). Run on
// the text folded for look-alikes and case but not for digits (a domain may hold digits), with each
// character's origin kept so the link can be masked in the original message.
import { foldChars } from './fold.ts';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
// A plain dot, a dot with a space on both sides, a dot or `dot` in brackets, or ` dot `. A dot with a
// space after it only (`so. Co-op`) ends a sentence and is not one.
const DOT = String.raw`(?:\.|\s+\.\s+|\s*[(\[{<]\s*(?:\.|dot)\s*[)\]}>]\s*|\s+dot\s+)`;
const TLDS = [
	'com',
	'net',
	'org',
	'io',
	'gg',
	'tv',
	'me',
	'co',
	'uk',
	'de',
	'fr',
	'ru',
	'xyz',
	'info',
	'biz',
	'app',
	'dev',
	'ly',
	'be',
	'to',
	'us',
	'ca',
	'au',
	'link',
	'site',
	'online',
	'live',
	'shop',
	'store',
	'club',
	'top',
	'fun',
	'vip',
	'cc',
	'ws',
	'su',
	'cn',
	'es',
	'it',
	'nl',
	'pl',
	'br',
	'in',
	'eu',
	'ai',
	'sh',
	'fm',
	'ink',
	'lol',
	'win',
	'bet',
	'casino',
	'porn',
	'sex',
	'cam'
];
const LINK = new RegExp(
	String.raw`https?:\/\/\S+|\bwww${DOT}${LABEL}(?:${DOT}${LABEL})*|\b${LABEL}(?:${DOT}${LABEL})*${DOT}(?:${TLDS.join('|')})(?![a-z0-9-])(?:\/\S*)?`,
	'g'
);

interface Span {
	start: number;
	end: number;
}

/** Where the message holds a link, as offsets into the message. */
export function findLinks(message: string): Span[] {
	const chars = foldChars(message);
	const text = chars.map((c) => c.ch).join('');
	return [...text.matchAll(LINK)].map((m) => ({
		start: chars[m.index].from,
		end: chars[m.index + m[0].length - 1].to
	}));
}
