// Shrink to fit: a widget's content stays inside its box whatever the text. The stage (Stage.svelte)
// measures its content against its own inner size and sets --fit, a factor the widget multiplies
// its font size by (every length of a widget is in em), down when the content overflows and back
// up to 1 when it has room again. Text wraps first (each widget's CSS lets it); only what still
// does not fit shrinks.
//
// Event-driven, never polled (STYLE.md, practice 8): a ResizeObserver on the stage and on each of
// its children, and a MutationObserver for children that come and go, so an idle overlay runs
// nothing. Sizes are layout sizes (offset/scroll), which a gsap transform does not change: a card
// sliding in is measured where it lands.

/** Below this the text is unreadable anyway: past it the content is left to its box. */
export const MIN_FIT = 0.15;
/** Steps of one measurement; wrapping makes the size a step function of the font, hence a loop. */
const MAX_STEPS = 8;

interface Extent {
	/** Room inside the stage (its padding excluded). */
	roomW: number;
	roomH: number;
	/** What the content takes. */
	needW: number;
	needH: number;
}

function extent(stage: HTMLElement): Extent | null {
	const style = getComputedStyle(stage);
	const px = (v: string) => parseFloat(v) || 0;
	const roomW = stage.clientWidth - px(style.paddingLeft) - px(style.paddingRight);
	const roomH = stage.clientHeight - px(style.paddingTop) - px(style.paddingBottom);
	if (roomW <= 0 || roomH <= 0) return null;
	const row = !style.flexDirection.startsWith('column');
	let needW = 0;
	let needH = 0;
	for (const child of stage.children) {
		if (!(child instanceof HTMLElement)) continue;
		const w = Math.max(child.offsetWidth, child.scrollWidth);
		const h = Math.max(child.offsetHeight, child.scrollHeight);
		needW = row ? needW + w : Math.max(needW, w);
		needH = row ? Math.max(needH, h) : needH + h;
	}
	if (needW === 0 || needH === 0) return null;
	return { roomW, roomH, needW, needH };
}

/** The factor to try next, or null when the current one is right. */
export function nextFit(fit: number, e: Extent): number | null {
	const ratio = Math.min(e.roomW / e.needW, e.roomH / e.needH);
	if (ratio < 0.999 && fit > MIN_FIT) return Math.max(MIN_FIT, fit * Math.min(ratio, 0.98));
	// Room to spare: grow toward 1, the next step shrinks again if the wrapping changed.
	if (ratio > 1.04 && fit < 1) return Math.min(1, fit * ratio);
	return null;
}

/** A Svelte attachment for a stage: keeps its content inside it by setting --fit. */
export function fitContent(stage: HTMLElement): () => void {
	let fit = 1;
	let last = -1;
	const settle = () => {
		for (let i = 0; i < MAX_STEPS; i++) {
			const e = extent(stage);
			if (!e) return;
			const next = nextFit(fit, e);
			// Growing back to a factor that was just too big would swing forever: stop there.
			if (next === null || Math.abs(next - fit) < 0.005 || (next > fit && next >= last)) break;
			last = fit;
			fit = next;
			stage.style.setProperty('--fit', fit.toFixed(3));
		}
		last = -1;
	};
	const resized = new ResizeObserver(settle);
	const watch = () => {
		resized.disconnect();
		resized.observe(stage);
		for (const child of stage.children) resized.observe(child);
	};
	const children = new MutationObserver(watch);
	children.observe(stage, { childList: true });
	watch();
	return () => {
		resized.disconnect();
		children.disconnect();
	};
}
