// `npm run bench:moderation`: how long the moderation matcher (src/core/moderation) takes to check
// one tip of a 500-character message against a long rule list, compiled once. Prints µs per check
// (median and 99th percentile of batches), and the first check of 500 look-alikes never seen before
// (each code point outside ASCII is folded once, then cached); no budget is enforced here, the
// figures are for reading.
import { compileRules, type ModerationRules } from '../src/core/moderation/matcher.ts';

const BASE = ['ass', 'shit', 'fuck*', 'bitch', 'cunt', 'cock', 'dick', 'kill yourself', 'penis'];
// A long list: the base words and 300 made-up ones, like a streamer's imported blocklist.
const made = Array.from({ length: 300 }, (_, i) => `w${(i * 7919).toString(36)}rd`);
const rules: ModerationRules = {
	words: [...BASE, ...made].map((text) => ({ text, outcome: 'no_voice' })),
	names: [{ text: 'Troll King', outcome: 'remove' }],
	links: 'hold',
	minAmount: { amount: 2, outcome: 'no_voice' },
	everyTip: null,
	fromAmount: { amount: 500, outcome: 'hold' }
};

const to500 = (s: string) => s.repeat(Math.ceil(500 / s.length)).slice(0, 500);
const MESSAGES = {
	harmless: to500('Great stream tonight, the class assessment in Scunthorpe was fun! '),
	evasions: to500('s.h.i.t ѕһіт f u c k 5h1t shiiiiit ＦＵＣＫ a$$ example dot com '),
	unicode: to500('Ｓｔｒｅａｍ 🙂 très bien, ça va? Привет всем! 最高の配信でした '),
	spaced: to500('a b c d e f g h i j k l m n o p q r s t u v w x y z ')
};

const started = performance.now();
const matcher = compileRules(rules);
console.log(
	`compile ${rules.words.length} word rules: ${(performance.now() - started).toFixed(2)} ms`
);

// Mathematical letters, Cherokee and Canadian syllabics: 500 distinct code points, most of them
// look-alikes of Latin letters in Unicode's data.
const fresh = [0x1d400, 0x13a0, 0x1400].flatMap((start) =>
	Array.from({ length: 167 }, (_, i) => String.fromCodePoint(start + i))
);
const coldStarted = performance.now();
matcher.check({ name: 'viewer', amount: 5, message: fresh.slice(0, 500).join('') });
console.log(`cold      500 new look-alikes: ${(performance.now() - coldStarted).toFixed(2)} ms`);

for (const [label, message] of Object.entries(MESSAGES)) {
	const tip = { name: 'viewer', amount: 5, message };
	for (let i = 0; i < 2000; i++) matcher.check(tip); // warm-up
	const perCheck: number[] = [];
	for (let batch = 0; batch < 200; batch++) {
		const t0 = performance.now();
		for (let i = 0; i < 50; i++) matcher.check(tip);
		perCheck.push(((performance.now() - t0) / 50) * 1000);
	}
	perCheck.sort((a, b) => a - b);
	const median = perCheck[100].toFixed(1);
	const p99 = perCheck[198].toFixed(1);
	console.log(`${label.padEnd(9)} ${message.length} chars: median ${median} µs, p99 ${p99} µs`);
}
