// A fresh simulator per test, for the OAuth tests (sim-oauth.test.ts, sim-oauth.tokens.test.ts).
import { simsPerTest } from '../fixtures/sim.ts';

export const start = simsPerTest();
