// Short lists of strings (an error card's problems, a debug panel's extra rows) as plain DOM
// children, text only. A Svelte {#each} block would do the same, but on a page that has no other
// list it brings its keyed-list runtime (about 1.8 kB gzipped of the TTS page) for a few lines
// that are replaced whole when they change.
import type { Attachment } from 'svelte/attachments';

/** One child element per item: `[tag, text]`, its text set as text (never parsed as HTML). */
export function textChildren(
	items: readonly (readonly [tag: string, text: string])[],
	dir?: 'auto'
): Attachment<HTMLElement> {
	return (parent) => {
		parent.replaceChildren(
			...items.map(([tag, text]) => {
				const child = document.createElement(tag);
				child.textContent = text;
				if (dir) child.dir = dir;
				return child;
			})
		);
	};
}
