import { mount } from 'svelte';
import Home from './Home.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

export const app = mount(Home, { target });
