import { defineConfig, type PlaywrightTestProject } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { engineEnv, engineExecutable, obsEngines } from './engines.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;

// Flags for every engine. OBS browser sources allow autoplay, so the tests do too; the rest keep
// Chromium from reaching the network or doing background work on a CI machine without a GPU.
const args = [
	'--no-sandbox',
	'--autoplay-policy=no-user-gesture-required',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--no-first-run',
	'--disable-sync'
];

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
			launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args }
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
	globalSetup: './global-setup.ts',
	fullyParallel: true,
	forbidOnly: !!process.env.CI,
	retries: process.env.CI ? 1 : 0,
	// The reference machine has two cores; a third browser would only make everything slower.
	workers: 2,
	reporter: 'list',
	outputDir: fileURLToPath(new URL('../../test-results/', import.meta.url)),
	use: { baseURL, trace: 'retain-on-failure' },
	projects,
	// The one server the pages are loaded from. For now the built dist/ served by `vite preview`;
	// the token endpoint server (which also serves dist/) replaces it once it exists.
	webServer: {
		command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
		cwd: root,
		url: baseURL,
		reuseExistingServer: !process.env.CI,
		timeout: 30_000
	}
});
