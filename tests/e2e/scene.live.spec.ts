// The scene in live mode: the same pages, traffic and checks as scene.spec.ts (scene.helpers.ts),
// with the token endpoint in live mode in front of the simulator run as its own process, as the
// real upstream would be (live.config.ts starts both: `npx playwright test -c
// tests/e2e/live.config.ts`). The traffic and the log go through the simulator's /_sim API.
import { test } from '@playwright/test';
import { runScene } from '../fixtures/scene-run.ts';
import { SceneSim } from '../fixtures/scene-traffic.ts';
import { LIVE } from './live-stack.ts';
import { expectSceneHeld, keepRun, SCENE_MS, SCENE_TIMEOUT_MS } from './scene.helpers.ts';

// No trace: recording a dozen pages for two minutes would load the machine more than the scene
// does, and slow every alert; what the run did is kept in scene.json (keepRun).
test.use({ trace: 'off' });

test('the whole scene in live mode: nothing refused, each tip started once, few upstream reads', async ({
	context,
	page
}, testInfo) => {
	test.setTimeout(SCENE_TIMEOUT_MS);
	const run = await runScene(context, {
		first: page,
		ms: SCENE_MS,
		origin: LIVE.origin,
		keys: LIVE.keys,
		sim: new SceneSim(LIVE.simOrigin, LIVE.apiKey)
	});
	await keepRun(testInfo, run);
	expectSceneHeld(run);
});
