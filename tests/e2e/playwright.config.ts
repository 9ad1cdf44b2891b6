import { defineConfig, type PlaywrightTestProject } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import {
	chromiumArgs,
	engineEnv,
	engineExecutable,
	obsEngines,
	systemChromium
} from './engines.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;

/** The overlay key the e2e server runs with (tests/e2e/fixtures.ts reads it too). */
export const E2E_OVERLAY_KEY = process.env.E2E_OVERLAY_KEY ?? 'e2e_overlay_key_0123456789';

/** Its control key: given, so that the server writes no .control-key file into the checkout. */
const E2E_CONTROL_KEY = process.env.E2E_CONTROL_KEY ?? 'e2e_control_key_0123456789';

const args = [...chromiumArgs];

// Launch options only replace the browser's environment, so start from ours.
const inheritedEnv = Object.fromEntries(
	Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)
);

export interface EngineMetadata {
	/** The Chrome major version the engine must report; absent for the system Chromium. */
	chromeMajor?: number;
}

const projects: PlaywrightTestProject[] = [
	{
		// A current Chromium: Debian's package, or any other binary given by CHROMIUM_PATH.
		name: 'chromium',
		use: {
			browserName: 'chromium',
			launchOptions: { executablePath: systemChromium, args }
		},
		metadata: {} satisfies EngineMetadata
	},
	// The engines OBS embeds, extracted by global-setup.ts (see engines.ts).
	...obsEngines.map((engine) => ({
		name: engine.project,
		use: {
			browserName: 'chromium' as const,
			launchOptions: {
				executablePath: engineExecutable(engine),
				args,
				env: { ...inheritedEnv, ...engineEnv(engine) }
			}
		},
		metadata: { chromeMajor: engine.major } satisfies EngineMetadata
	}))
];

export default defineConfig({
	testDir: '.',
	// The live-mode scene runs with its own two servers (live.config.ts).
	testIgnore: '*.live.spec.ts',
	globalSetup: './global-setup.ts',
	fullyParallel: true,
	forbidOnly: !!process.env.CI,
	retries: process.env.CI ? 1 : 0,
	// The reference machine has two cores; a third browser would only make everything slower.
	workers: 2,
	// Tips are read aloud in real time (five tips take 20 to 25 s) and the preview runs a page per
	// overlay in frames: on two loaded cores Playwright's default 30 s per test is too tight.
	timeout: 60_000,
	reporter: 'list',
	outputDir: fileURLToPath(new URL('../../test-results/', import.meta.url)),
	use: { baseURL, trace: 'retain-on-failure' },
	projects,
	// The product itself serves the pages: the token endpoint in demo mode, with its embedded
	// simulator (GET /healthz names the simulator's origin, whose /_sim API steers it). dist/ is built
	// by `npm test` before this tier runs, so the server must not rebuild it.
	webServer: {
		command: 'npx tsx src/main.ts',
		cwd: root,
		url: `${baseURL}/healthz`,
		env: {
			PORT: String(port),
			HOST: '127.0.0.1',
			OVERLAY_KEY: E2E_OVERLAY_KEY,
			CONTROL_KEY: E2E_CONTROL_KEY,
			DEMO_TRAFFIC: '0',
			SKIP_BUILD: '1'
		},
		reuseExistingServer: !process.env.CI,
		timeout: 30_000
	}
});
