// A keyed list of components as one attachment on their parent element: one component per item,
// mounted when its key first appears, handed the item's new props when the list changes, moved when
// the order changes, unmounted when its key goes. A Svelte {#each} block does the same, but its
// keyed-list runtime is about 1.5 kB gzipped of a page whose only list this is (the counters page,
// and the overlay's boxes). The parent holds nothing else: the attachment owns its children.
import { mount, unmount, untrack, type Component } from 'svelte';
import type { Attachment } from 'svelte/attachments';

/** Any props object: what svelte's own `mount` takes. */
type Props = Record<string, any>;

/** One mounted item: its props (read through getters, so the component sees each new value). */
class Slot<P extends Props> {
	props: P = $state.raw() as P;
	readonly nodes: ChildNode[];
	readonly instance: Props;

	constructor(component: Component<P>, props: P) {
		this.props = props;
		const reader = {} as P;
		for (const name of Object.keys(props))
			Object.defineProperty(reader, name, { get: () => this.props[name], enumerable: true });
		// Rendered into a detached element, then moved into place with the rest (keyedComponents).
		const holder = document.createElement('div');
		this.instance = mount(component, { target: holder, props: reader });
		this.nodes = [...holder.childNodes];
	}
}

/**
 * `{@attach keyedComponents(() => list, (item) => item.id, Item, (item) => ({ item }))}`: what
 * `{#each list as item (item.id)}<Item {item} />{/each}` renders, the props function read again
 * whenever the list or anything it reads changes.
 */
export function keyedComponents<T, P extends Props>(
	items: () => readonly T[],
	key: (item: T) => string,
	component: Component<P>,
	props: (item: T) => NoInfer<P>
): Attachment<HTMLElement> {
	return (parent) => {
		const slots = new Map<string, Slot<P>>();
		$effect(() => {
			const wanted = new Map<string, P>();
			for (const item of items()) {
				const k = key(item);
				if (!wanted.has(k)) wanted.set(k, props(item));
			}
			untrack(() => {
				for (const [k, slot] of slots)
					if (!wanted.has(k)) {
						void unmount(slot.instance);
						slots.delete(k);
					}
				let at = parent.firstChild;
				for (const [k, p] of wanted) {
					let slot = slots.get(k);
					if (slot) slot.props = p;
					else slots.set(k, (slot = new Slot(component, p)));
					// In order: a node already in its place stays (no move, no layout work).
					for (const node of slot.nodes)
						if (node === at) at = at.nextSibling;
						else parent.insertBefore(node, at);
				}
			});
		});
		return () => {
			for (const slot of slots.values()) void unmount(slot.instance);
			slots.clear();
		};
	};
}
