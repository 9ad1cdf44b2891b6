/**
 * Material for the simulator's demo traffic: who tips, what they write, how much, and a seeded
 * random source so a scenario replays identically. The lists lean on the cases that break
 * overlays: right-to-left scripts, emoji, CJK, empty and very long text, unbroken words, markup.
 */

export interface Rng {
	/** Uniform in [0, 1). */
	next(): number;
	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number;
	chance(p: number): boolean;
	pick<T>(items: readonly T[]): T;
	/** One value, drawn with probability proportional to its weight. */
	weighted<T>(items: ReadonlyArray<readonly [T, number]>): T;
}

/** mulberry32: tiny, fast and good enough for demo traffic; the same seed gives the same stream. */
export function createRng(seed: number): Rng {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		int: (min, max) => min + Math.floor(next() * (max - min + 1)),
		chance: (p) => next() < p,
		pick: (items) => {
			if (items.length === 0) throw new Error('pick from an empty list');
			return items[Math.floor(next() * items.length)];
		},
		weighted: (items) => {
			const total = items.reduce((sum, [, w]) => sum + w, 0);
			let roll = next() * total;
			for (const [value, w] of items) {
				roll -= w;
				if (roll < 0) return value;
			}
			return items[items.length - 1][0];
		}
	};
}

export const donorNames: readonly string[] = [
	'Jo',
	'Q',
	'ana',
	'lurker_9000',
	'NightOwl42',
	'PogChampion',
	'xX_Sn1per_Xx',
	'MamaBear',
	'chat_is_this_real',
	'GrandmaGamer',
	'notabot',
	'speedrun_steve',
	'TheRealSlimShadyWannabe1',
	'BigTipEnergy',
	'hydrate_or_diedrate',
	'KEKW_enjoyer',
	'cozy_cat_cafe',
	'Anonymous',
	'a_very_long_display_name_that_the_tip_page_happily_allows',
	'José_García',
	'Zoë',
	'François',
	'Łukasz',
	'Björn_Eriksson',
	'Dvořák',
	'Ñoño',
	'Søren',
	'İlkay',
	'ゆきちゃん',
	'配信好き',
	'小龙',
	'김민수',
	'محمد_الغامدي',
	'ياسمين',
	'נועה',
	'אבי_גיימר',
	'🔥FireFox🔥',
	'Sparkles✨',
	'🦊',
	'pizza🍕lover',
	'👑 KingOfChat 👑',
	'Привет_Мир'
];

export const tipMessages: readonly (string | null)[] = [
	null,
	null,
	'',
	'gg',
	'first!',
	'Love the stream ❤️',
	'hi mom',
	'Thanks for the amazing stream tonight! Keep it up, you are doing great.',
	'That clutch in round 12 was insane, how did you even see him?',
	'Buy yourself a coffee, you earned it after that boss fight.',
	'Can you say hi to my cat Mochi? She watches every stream with me.',
	'Greetings from Berlin!! Been watching since 2019, you never fail to make my day better.',
	'what the **** was that play',
	'<b>bold?</b> & <i>not</i> <script>alert(1)</script>',
	'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
	'line one\nline two',
	'Saludos desde México, ¡sigue así! 🇲🇽',
	'¿Cuántas muertes llevas hoy? Yo cuento al menos quince.',
	'Grüße aus Österreich! Weiter so, der Stream ist großartig.',
	'Für die Schlüsselszene vorhin: Respekt, das war knapp.',
	'配信ありがとう！いつも楽しく見ています。',
	'がんばって！🎮',
	'شكرا على البث الرائع! استمر',
	'تحياتي من الرياض، أنت الأفضل 🌙',
	'שלום מישראל, תודה על הסטרים!',
	'Abraços do Brasil! Valeu pela live, mano.',
	'Boa sorte na próxima partida, você consegue!',
	'Merci pour le stream, à demain !',
	'방송 너무 재밌어요 ㅋㅋㅋ',
	'Спасибо за стрим!',
	'🔥🔥🔥',
	'👏👏👏👏👏',
	'🎉',
	'❤️🧡💛💚💙💜',
	'👨‍👩‍👧‍👦 family watch night',
	'GG مرحبا everyone שלום',
	'ẑ̷a̸l̶g̵o̴ says hi',
	"Okay so I have been lurking for about two years now and I finally decided to say something because your streams got me through a really rough winter. Every evening I'd put you on in the background while studying for my exams, and hearing chat lose their minds over your questionable jump strategies kept me sane. I passed everything, by the way! So this one is a thank-you. Please never stop doing the terrible puns, they are the best part."
];

/** Tip amounts with weights that look like a real channel: many small tips, few big ones. */
export const amountWeights: ReadonlyArray<readonly [number, number]> = [
	[1, 18],
	[2.5, 10],
	[5, 30],
	[10, 20],
	[20, 11],
	[50, 7],
	[100, 3],
	[150, 1]
];

/** Counter names as a streamer's chat commands use them (`!deaths`, `!wins+`). */
export const counterNames: readonly string[] = [
	'deaths',
	'wins',
	'losses',
	'hype',
	'headshots',
	'hydrate',
	'pets',
	'fails'
];

export const videoRequestTitles: readonly string[] = [
	'Lofi beats to stream to',
	'Top 10 speedrun fails of the year',
	'Cat knocks everything off the table (compilation)',
	'How to beat the final boss without taking damage',
	'NEVER GONNA GIVE YOU UP (official video)',
	'Epic orchestral music for epic moments 🎻',
	'【作業用BGM】夜のカフェジャズ',
	'أجمل تلاوة هادئة للدراسة',
	'Música para relaxar e estudar',
	'Die besten Momente aus dem Community-Turnier',
	'10 hours of rain sounds, but the rain is slightly offended',
	'a cooking video where absolutely everything goes wrong and the chef just keeps going anyway'
];

export type DemoPlatform = 'twitch' | 'kick';

/** What a tip looks like before the simulator model gives it an order id and a time. */
export interface DemoTipInput {
	name: string;
	/** Null for sub rewards, which are paid for with credits, not money. */
	amount: number | null;
	message: string | null;
	/** Money really changed hands (QueueTip.is_paid). */
	paid: boolean;
	/** QueueTip.source: stripe, paypal, manual, api or sub_reward. */
	source: string;
	is_sub_reward: boolean;
	platform: DemoPlatform | null;
	platform_user_id: string | null;
	/** API tips only: the caller's label and payment reference. */
	external_source: string | null;
	external_ref: string | null;
}

export function randomAmount(rng: Rng): number {
	return rng.weighted(amountWeights);
}

export function randomMessage(rng: Rng): string | null {
	return rng.pick(tipMessages);
}

/** One plausible tip; roughly 12% sub rewards, 10% manual, 8% API, the rest card or PayPal. */
export function randomTipInput(rng: Rng): DemoTipInput {
	const name = rng.pick(donorNames);
	const message = randomMessage(rng);
	const kind = rng.weighted<'sub_reward' | 'manual' | 'api' | 'stripe' | 'paypal'>([
		['sub_reward', 12],
		['manual', 10],
		['api', 8],
		['stripe', 46],
		['paypal', 24]
	]);
	if (kind === 'sub_reward') {
		// Only signed-in viewers hold sub-reward credits, so a platform is always known.
		const platform = rng.pick<DemoPlatform>(['twitch', 'kick']);
		return {
			name,
			amount: null,
			message,
			paid: false,
			source: 'sub_reward',
			is_sub_reward: true,
			platform,
			platform_user_id: platformUserId(platform, name),
			external_source: null,
			external_ref: null
		};
	}
	const platform = kind === 'manual' ? null : randomPlatform(rng);
	const isApi = kind === 'api';
	return {
		name,
		amount: randomAmount(rng),
		message,
		paid: kind === 'stripe' || kind === 'paypal' || (isApi && rng.chance(0.5)),
		source: kind,
		is_sub_reward: false,
		platform,
		platform_user_id: platform && platformUserId(platform, name),
		external_source: isApi ? rng.pick(['streamlabs-import', 'merch-store', 'charity-bot']) : null,
		external_ref: isApi ? `ref_${rng.int(100_000, 999_999)}` : null
	};
}

function randomPlatform(rng: Rng): DemoPlatform | null {
	return rng.weighted<DemoPlatform | null>([
		['twitch', 50],
		['kick', 20],
		[null, 30]
	]);
}

/**
 * A stable numeric id per (platform, name), so one donor's tips group together on the leaderboard
 * the way a signed-in account's would.
 */
function platformUserId(platform: DemoPlatform, name: string): string {
	let hash = 2166136261;
	for (const ch of `${platform}:${name}`) {
		hash = Math.imul(hash ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
	}
	// Twitch ids run to 9 digits; Kick's are shorter.
	return String(
		platform === 'twitch' ? 10_000_000 + (hash % 890_000_000) : 1_000_000 + (hash % 9_000_000)
	);
}
