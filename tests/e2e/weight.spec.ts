// Page weight (issue #8): the gzipped JS and CSS each built page loads is a deterministic budget,
// so it is a test over dist/ (built before this tier runs). Each page is held to its ceiling in
// bench/budgets.ts (its size when last measured plus a small margin), so that growth fails here;
// the budget the bench prints stays the target.
import { fileURLToPath } from 'node:url';
import { BUDGETS, WEIGHT_CEILINGS } from '../../bench/budgets.ts';
import { pageWeights } from '../../bench/weight.ts';
import { expect, test } from './fixtures.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));

test('every page stays within its weight ceiling, and a ceiling never exceeds a met budget', async ({}, testInfo) => {
	test.skip(testInfo.project.name !== 'chromium', 'bytes do not depend on the engine');
	const weights = pageWeights(dist);
	expect(weights.map((w) => w.page).sort()).toEqual(Object.keys(WEIGHT_CEILINGS).sort());
	for (const w of weights) {
		const ceiling = WEIGHT_CEILINGS[w.page];
		expect(w.totalGz, `${w.page}: ${w.totalGz} B gz (ceiling ${ceiling} B)`).toBeLessThanOrEqual(
			ceiling
		);
		// Once a page meets its budget, its ceiling must hold it there.
		const budget = BUDGETS.weightBytes[w.page];
		if (budget !== undefined && w.totalGz <= budget)
			expect(ceiling, `${w.page}: ceiling above the budget it meets`).toBeLessThanOrEqual(budget);
	}
});
