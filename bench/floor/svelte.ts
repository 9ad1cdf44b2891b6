// Floor page (a): Svelte 5 alone, one component with one $state counter.
import { mount } from 'svelte';
import Counter from './Counter.svelte';

mount(Counter, { target: document.getElementById('app')! });
