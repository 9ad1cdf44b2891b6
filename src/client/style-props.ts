// Inline style properties (custom properties included) set from script, for an element's
// `{@attach styleProps({...})}`. Svelte's `style:` directives do the same, but compile to its
// style-string runtime (a parser of `style` attributes, about 0.3 kB gzipped on every page) for what
// is here a few values that are set whole. The attachment runs again whenever a value it reads
// changes; a value that is null, undefined or '' removes its property, as a `style:` directive does.
import type { Attachment } from 'svelte/attachments';

export type StyleProps = Record<string, string | number | null | undefined>;

/** Sets each property of `props` on the element (`--name` for a custom property). */
export function styleProps(props: StyleProps): Attachment<HTMLElement> {
	return (el) => {
		for (const [name, value] of Object.entries(props))
			if (value == null || value === '') el.style.removeProperty(name);
			else el.style.setProperty(name, String(value));
	};
}
