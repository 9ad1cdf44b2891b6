// What "fits" means, measured in the page: every rendered element of a widget lies inside its box
// (an overlay page's `.widget` element; on a widget page, the window) and inside the window, and no
// ancestor with hidden/clipped overflow cuts it. Content cut inside an element (text running past
// an `overflow: hidden` box) counts too, except a deliberate line clamp (`-webkit-line-clamp`: a
// title or a name ending in an ellipsis after its lines, which the README promises), which is the
// widget's intended wrap, not a cut.
//
// `root` measures one section of a page (the preview's settings editor) against the window.
//
// An interactive page (the dock) is measured with `scrolls`: there the page itself scrolls
// vertically, and a box that scrolls (overflow auto or scroll) shows what runs past its top or bottom
// by scrolling, so only sideways overflow is a cut (nobody should have to scroll a dock sideways).
// An OBS source cannot be scrolled: there both directions count. `minTextPx` and `minButtonPx` add
// the rules of a page one reads and presses at arm's length: no shown text smaller, no button
// shorter.
import type { Page } from '@playwright/test';

/** One thing that does not fit: which widget, which element, by how many pixels. */
export type LayoutProblem = string;

interface LayoutRules {
	/** An interactive page: it scrolls vertically, as do its lists (see the top of this file). */
	scrolls?: boolean;
	/** The smallest font size of shown text, in CSS pixels. */
	minTextPx?: number;
	/** The smallest height of a shown button, in CSS pixels. */
	minButtonPx?: number;
	/** Only the element this selector finds, measured against the window (a section of a page). */
	root?: string;
}

/** Runs in the page: returns what does not fit (empty when everything does). */
function measure({
	scrolls = false,
	minTextPx = 0,
	minButtonPx = 0,
	root: only
}: LayoutRules): string[] {
	const TOLERANCE = 1;
	const problems: string[] = [];
	const vw = window.innerWidth;
	const vh = window.innerHeight;
	const describe = (el: Element) => {
		const cls = typeof el.className === 'string' ? el.className.split(' ')[0] : '';
		const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
		return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${text ? ` "${text}"` : ''}`;
	};
	const shown = (el: Element) => {
		for (let e: Element | null = el; e; e = e.parentElement) {
			const s = getComputedStyle(e);
			if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0)
				return false;
			// Clipped to nothing: for screen readers only (a visually hidden heading).
			if (s.position === 'absolute' && s.clip === 'rect(0px, 0px, 0px, 0px)') return false;
		}
		return true;
	};
	const clips = (s: CSSStyleDeclaration) =>
		['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowX) ||
		['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowY);
	/** What runs past a box's top or bottom is scrolled to, not cut (with `scrolls`). */
	const scrollsY = (s: CSSStyleDeclaration) => scrolls && ['auto', 'scroll'].includes(s.overflowY);
	type Edges = { left: number; top: number; right: number; bottom: number };
	/** How far `r` runs out of `c`: sideways, and up or down (0 when inside). */
	const past = (r: Edges, c: Edges) => ({
		x: Math.max(c.left - r.left, r.right - c.right),
		y: Math.max(c.top - r.top, r.bottom - c.bottom)
	});
	const roots: { el: Element; name: string; box: DOMRect | null }[] = [];
	const boxes = document.querySelectorAll('.widget[data-widget-id]');
	if (only) {
		const section = document.querySelector(only);
		if (!section) return [`${only}: not on the page`];
		roots.push({ el: section, name: only, box: null });
	} else if (boxes.length)
		for (const b of boxes)
			roots.push({
				el: b,
				name: `${(b as HTMLElement).dataset.widgetType} ${(b as HTMLElement).dataset.widgetId}`,
				box: b.getBoundingClientRect()
			});
	else roots.push({ el: document.body, name: location.pathname, box: null });
	for (const root of roots) {
		const box = root.box ?? new DOMRect(0, 0, vw, vh);
		// With `scrolls`, the page's height is the whole document's, wherever it is scrolled to.
		const page = document.documentElement;
		const limit: Edges = {
			left: Math.max(0, box.left),
			top: scrolls ? -scrollY : Math.max(0, box.top),
			right: Math.min(vw, box.right),
			bottom: scrolls ? Math.max(vh, page.scrollHeight) - scrollY : Math.min(vh, box.bottom)
		};
		for (const el of root.el.querySelectorAll('*')) {
			if (el.closest('[data-layout-ignore]')) continue;
			const r = el.getBoundingClientRect();
			if (r.width < 0.5 || r.height < 0.5 || !shown(el)) continue;
			// Clipped by an ancestor inside the widget (or, in a box that scrolls, reached by it).
			let scrolled = false;
			for (let a = el.parentElement; a && a !== root.el; a = a.parentElement) {
				const as = getComputedStyle(a);
				if (!clips(as)) continue;
				scrolled ||= scrollsY(as);
				const beyond = past(r, a.getBoundingClientRect());
				const cut = Math.max(beyond.x, scrollsY(as) ? 0 : beyond.y);
				if (cut > TOLERANCE) {
					problems.push(
						`${root.name}: ${describe(el)} is cut by ${describe(a)} (${Math.round(cut)}px)`
					);
					break;
				}
			}
			const outside = past(r, limit);
			const out = Math.max(outside.x, scrolled ? 0 : outside.y);
			if (out > TOLERANCE)
				problems.push(`${root.name}: ${describe(el)} is ${Math.round(out)}px outside its box`);
			const s = getComputedStyle(el);
			const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim());
			if (hasText && parseFloat(s.fontSize) < minTextPx)
				problems.push(`${root.name}: ${describe(el)} is set in ${s.fontSize}`);
			if (el.tagName === 'BUTTON' && r.height < minButtonPx - 0.5)
				problems.push(`${root.name}: ${describe(el)} is ${r.height}px tall`);
			// Text cut inside its own box.
			const clamp = s.getPropertyValue('-webkit-line-clamp');
			if (clips(s) && (!clamp || clamp === 'none')) {
				const h = el as HTMLElement;
				const over = Math.max(
					h.scrollWidth - h.clientWidth,
					scrollsY(s) ? 0 : h.scrollHeight - h.clientHeight
				);
				if (over > TOLERANCE && (hasText || el.children.length > 0))
					problems.push(`${root.name}: the content of ${describe(el)} is cut (${over}px)`);
			}
		}
	}
	return problems;
}

/** What does not fit on the page as it is now (and breaks `rules`, when given). */
export function layoutProblems(page: Page, rules: LayoutRules = {}): Promise<LayoutProblem[]> {
	return page.evaluate(measure, rules);
}
