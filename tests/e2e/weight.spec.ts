// Page weight (bench/budgets.ts): the gzipped JS and CSS each built page loads is deterministic, so
// it is a test. Each page is held to its ceiling (its size when last measured plus a small margin)
// so that growth fails here, and so is our own code on a budgeted page (the page minus the floor
// page of the libraries it loads, bench/floor.ts): to its budget once met, until then to its size
// when last measured (OWN_WEIGHT_CEILINGS), so that it only goes down. `npm run bench` reports
// each figure against its budget.
import { fileURLToPath } from 'node:url';
import { BUDGETS, OWN_WEIGHT_CEILINGS, WEIGHT_CEILINGS } from '../../bench/budgets.ts';
import { floorName, floorWeights, type Library } from '../../bench/floor.ts';
import { LIBRARIES, pageShares } from '../../bench/shares.ts';
import { pageWeights } from '../../bench/weight.ts';
import { expect, test } from './fixtures.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));

test('every page stays within its weight ceiling', async ({}, testInfo) => {
	test.skip(testInfo.project.name !== 'chromium', 'bytes do not depend on the engine');
	const weights = pageWeights(dist);
	expect(weights.map((w) => w.page).sort()).toEqual(Object.keys(WEIGHT_CEILINGS).sort());
	for (const w of weights) {
		const ceiling = WEIGHT_CEILINGS[w.page];
		expect(w.totalGz, `${w.page}: ${w.totalGz} B gz (ceiling ${ceiling} B)`).toBeLessThanOrEqual(
			ceiling
		);
	}
});

test('our code on the TTS, counters and overlay pages does not grow above the stack', async ({}, testInfo) => {
	test.skip(testInfo.project.name !== 'chromium', 'bytes do not depend on the engine');
	// Two builds: the product once more (to tell whose bytes are whose) and the floor pages.
	test.setTimeout(180_000);
	const pages = (await pageShares()).filter((w) => w.page in BUDGETS.ownWeightBytes);
	const libsOf = (shares: Record<string, number>) =>
		LIBRARIES.filter((lib) => lib !== 'svelte' && shares[lib] > 0) as Library[];
	const floors = await floorWeights(pages.map((w) => libsOf(w.shares)));
	expect(pages.map((w) => w.page).sort()).toEqual(Object.keys(BUDGETS.ownWeightBytes).sort());
	for (const w of pages) {
		const name = floorName(libsOf(w.shares));
		const own = w.totalGz - floors.get(name)!.totalGz;
		const budget = BUDGETS.ownWeightBytes[w.page];
		const ceiling = Math.max(budget, OWN_WEIGHT_CEILINGS[w.page]);
		expect(
			own,
			`${w.page}: our code ${own} B gz above the floor ${name} (ceiling ${ceiling}, budget ${budget})`
		).toBeLessThanOrEqual(ceiling);
	}
});
