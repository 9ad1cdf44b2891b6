// Unicode's look-alike data (UTS #39, "Unicode Security Mechanisms"): the confusables.txt mapping
// of a character to its prototype, the characters it is drawn like, and the skeleton built from it.
// The data is the npm package unhomoglyph@1.0.6: its data.json is confusables.txt of Unicode 13.0.0
// as one object, each of the 6,311 source characters to its prototype. It is parsed once, when this
// module loads (about 6 ms on Node 20; the server build carries it inline); fold.ts folds each code
// point through it once and keeps the result.
import prototypes from 'unhomoglyph/data.json' with { type: 'json' };

const PROTOTYPE: Readonly<Record<string, string | undefined>> = prototypes;

/**
 * The TR39 skeleton of a text: NFD, each code point replaced by its prototype, NFD again. With
 * `keepAscii`, ASCII characters stay as they are (the standard maps `m` to `rn`, `I` and `1` to
 * `l`, `0` to `O`; fold.ts reads ASCII its own way).
 */
export function skeleton(text: string, keepAscii = false): string {
	let out = '';
	for (const cp of text.normalize('NFD'))
		out += keepAscii && cp.charCodeAt(0) < 0x80 ? cp : (PROTOTYPE[cp] ?? cp);
	return out.normalize('NFD');
}
