// Every floor page: one Svelte component with one piece of state, showing what each library used
// on the page answered (so no use is dropped as dead code).
import { mount } from 'svelte';
import Counter from './Counter.svelte';

export function mountFloor(uses: ((target: HTMLElement) => string)[]): void {
	const target = document.getElementById('app')!;
	mount(Counter, { target, props: { note: uses.map((use) => ` ${use(target)}`).join('') } });
}
