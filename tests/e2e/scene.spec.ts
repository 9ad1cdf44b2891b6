// The scene in demo mode (the embedded simulator): the preview, the ten OBS sources the README
// lists and the dock, in one browser context, with a tip every 6 s and a video every 20 s for 90 s
// (SCENE_S). No page is refused anything but a lost claim race, every tip starts exactly once, and
// the streamer's reads of the upstream stay at 10 a minute at most once the scene is loaded
// (scene.helpers.ts). The same scene in live mode: scene.live.spec.ts; its timings: bench/scene.ts.
import { runScene } from '../fixtures/scene-run.ts';
import { SceneSim } from '../fixtures/scene-traffic.ts';
import { test } from './fixtures.ts';
import { expectSceneHeld, keepRun, SCENE_MS, SCENE_TIMEOUT_MS } from './scene.helpers.ts';

// No trace: recording a dozen pages for two minutes would load the machine more than the scene
// does, and slow every alert; what the run did is kept in scene.json (keepRun).
test.use({ trace: 'off' });

test('the whole scene in one browser: nothing refused, each tip started once, few upstream reads', async ({
	context,
	page,
	stack
}, testInfo) => {
	// A dozen pages with 20 frames: the current engine carries the scene; the OBS engines each
	// run their own sources in the other tests.
	test.skip(testInfo.project.name !== 'chromium', 'the scene runs in the current Chromium');
	test.setTimeout(SCENE_TIMEOUT_MS);
	const run = await runScene(context, {
		first: page,
		ms: SCENE_MS,
		origin: stack.origin,
		keys: { overlay: stack.key, control: stack.controlKey },
		sim: new SceneSim(stack.sim.origin, stack.sim.apiKey)
	});
	await keepRun(testInfo, run);
	expectSceneHeld(run);
});
