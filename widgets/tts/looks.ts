// The card's preset looks as data: each sets the card's --look-* properties (AlertCard.svelte),
// which a tier's own colours override and which override the page's theme. `classic` sets none.
import type { Look } from './tiers.ts';

export interface LookStyle {
	accent: string;
	color: string;
	/** A diagonal gradient behind the card. */
	bg: string;
	/** How far the accent's glow reaches around the card. */
	glow: string;
}

/** `from` and `to` are the gradient's ends as `r g b / alpha`. */
const look = (
	accent: string,
	color: string,
	from: string,
	to: string,
	glowEm: number
): LookStyle => ({
	accent,
	color,
	bg: `linear-gradient(135deg, rgb(${from}), rgb(${to}))`,
	glow: `${glowEm}em`
});

export const LOOK_STYLES: Partial<Record<Look, LookStyle>> = {
	gold: look('#ffd54a', '#fff8e1', '66 46 8 / 0.92', '24 18 6 / 0.9', 0.6),
	neon: look('#22d3ee', '#f5d0fe', '40 8 64 / 0.92', '8 10 40 / 0.9', 0.9),
	ember: look('#ff7a3d', '#fff1e6', '110 20 8 / 0.93', '40 8 4 / 0.92', 1.2),
	frost: look('#7dd3fc', '#f0f9ff', '12 40 66 / 0.9', '6 16 30 / 0.9', 0.5)
};
