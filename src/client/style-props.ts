// Inline style properties (custom properties included) and classes switched on and off, set from
// script: `{@attach styleProps({...})}`, `{@attach classToggles({...})}`. Svelte's `style:` and
// `class:` directives do the same, but compile to its style-string runtime (a parser of `style`
// attributes, about 0.3 kB gzipped on every page) and its class-string runtime (about 0.3 kB on the
// pages that have one) for what are here a few values set whole. An attachment runs again whenever
// a value it reads changes; a style value that is null, undefined or '' removes its property, as a
// `style:` directive does. A class set this way is invisible to Svelte's CSS scoping: its rules
// name it inside `:global(...)` (`.spoken:global(.running)`), still scoped by the other class.
// Attributes whose value changes (`data-look`, `aria-live`) are set by `{@attach attributes({...})}`:
// written as `name={value}`, they compile to Svelte's attribute runtime (which also looks up each
// element type's DOM property setters, about 0.3 kB gzipped) for plain strings set whole. A rule
// on such an attribute names it inside `:global(...)` too (`.card:global([data-look='gold'])`),
// or Svelte, which no longer sees the attribute in the markup, drops the rule as unused.
// Likewise a widget holds an element it animates with `{@attach ref((el) => (x = el))}` rather
// than `bind:this={x}`, whose binding runtime (0.13 kB gzipped) nothing else on a page needs.
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

/** Adds each class whose value is true and removes each whose value is false. */
export function classToggles(classes: Record<string, boolean>): Attachment<HTMLElement> {
	return (el) => {
		for (const [name, on] of Object.entries(classes)) el.classList.toggle(name, on);
	};
}

/** Sets each attribute of `attrs` on the element; one whose value is null or undefined is removed. */
export function attributes(attrs: Record<string, string | null | undefined>): Attachment<Element> {
	return (el) => {
		for (const [name, value] of Object.entries(attrs))
			if (value == null) el.removeAttribute(name);
			else el.setAttribute(name, value);
	};
}

/** Hands the element to `set` while it is mounted, and undefined once it is gone (`bind:this`). */
export function ref<E extends Element>(set: (el: E | undefined) => void): Attachment<E> {
	return (el) => {
		set(el);
		return () => set(undefined);
	};
}
