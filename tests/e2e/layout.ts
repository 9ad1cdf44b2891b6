// What "fits" means, measured in the page: every rendered element of a widget lies inside its box
// (an overlay page's `.widget` element; on a widget page, the window) and inside the window, and no
// ancestor with hidden/clipped overflow cuts it. Content cut inside an element (text running past
// an `overflow: hidden` box) counts too, except a deliberate line clamp (`-webkit-line-clamp`: a
// title or a name ending in an ellipsis after its lines, which the README promises), which is the
// widget's intended wrap, not a cut.
import type { Page } from '@playwright/test';

/** One thing that does not fit: which widget, which element, by how many pixels. */
export type LayoutProblem = string;

/** Runs in the page: returns what does not fit (empty when everything does). */
function measure(): string[] {
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
		}
		return true;
	};
	const clips = (s: CSSStyleDeclaration) =>
		['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowX) ||
		['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowY);
	const roots: { el: Element; name: string; box: DOMRect | null }[] = [];
	const boxes = document.querySelectorAll('.widget[data-widget-id]');
	if (boxes.length)
		for (const b of boxes)
			roots.push({
				el: b,
				name: `${(b as HTMLElement).dataset.widgetType} ${(b as HTMLElement).dataset.widgetId}`,
				box: b.getBoundingClientRect()
			});
	else roots.push({ el: document.body, name: location.pathname, box: null });
	for (const root of roots) {
		const box = root.box ?? new DOMRect(0, 0, vw, vh);
		const limit = {
			left: Math.max(0, box.left),
			top: Math.max(0, box.top),
			right: Math.min(vw, box.right),
			bottom: Math.min(vh, box.bottom)
		};
		for (const el of root.el.querySelectorAll('*')) {
			if (el.closest('[data-layout-ignore]')) continue;
			const r = el.getBoundingClientRect();
			if (r.width < 0.5 || r.height < 0.5 || !shown(el)) continue;
			const out = Math.max(
				limit.left - r.left,
				limit.top - r.top,
				r.right - limit.right,
				r.bottom - limit.bottom
			);
			if (out > TOLERANCE)
				problems.push(`${root.name}: ${describe(el)} is ${Math.round(out)}px outside its box`);
			// Clipped by an ancestor inside the widget.
			for (let a = el.parentElement; a && a !== root.el; a = a.parentElement) {
				if (!clips(getComputedStyle(a))) continue;
				const c = a.getBoundingClientRect();
				const cut = Math.max(
					c.left - r.left,
					c.top - r.top,
					r.right - c.right,
					r.bottom - c.bottom
				);
				if (cut > TOLERANCE) {
					problems.push(
						`${root.name}: ${describe(el)} is cut by ${describe(a)} (${Math.round(cut)}px)`
					);
					break;
				}
			}
			// Text cut inside its own box.
			const s = getComputedStyle(el);
			const clamp = s.getPropertyValue('-webkit-line-clamp');
			if (clips(s) && (!clamp || clamp === 'none')) {
				const h = el as HTMLElement;
				const over = Math.max(h.scrollWidth - h.clientWidth, h.scrollHeight - h.clientHeight);
				const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim());
				if (over > TOLERANCE && (hasText || el.children.length > 0))
					problems.push(`${root.name}: the content of ${describe(el)} is cut (${over}px)`);
			}
		}
	}
	return problems;
}

/** What does not fit on the page as it is now. */
export function layoutProblems(page: Page): Promise<LayoutProblem[]> {
	return page.evaluate(measure);
}
