// The live-mode scene (scene.live.spec.ts): `npx playwright test -c tests/e2e/live.config.ts`.
// Two processes as a streamer runs them against the real service: the simulator alone
// (src/sim/main.ts, what `npm run sim` runs) and the token endpoint in live mode in front of it
// (src/main.ts with TIP_API_KEY, TIP_API_BASE_URL and TIP_WS_URL), serving the built dist/ (run
// `npm run build` first). Its stores (moderation, settings, chat) are files in the system's temp
// folder, never in the checkout. The current Chromium only: E2E_PORT and E2E_SIM_PORT set the ports.
import { defineConfig } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumArgs, systemChromium } from './engines.ts';
import { LIVE } from './live-stack.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const stores = join(tmpdir(), `tip-overlay-kit-live-e2e-${LIVE.port}`);

export default defineConfig({
	testDir: '.',
	testMatch: '*.live.spec.ts',
	forbidOnly: !!process.env.CI,
	retries: 0,
	// One scene at a time: it is the whole machine's load by itself.
	workers: 1,
	reporter: 'list',
	outputDir: fileURLToPath(new URL('../../test-results/live/', import.meta.url)),
	use: { baseURL: LIVE.origin, trace: 'retain-on-failure' },
	projects: [
		{
			name: 'chromium',
			use: {
				browserName: 'chromium',
				launchOptions: { executablePath: systemChromium, args: [...chromiumArgs] }
			}
		}
	],
	webServer: [
		{
			command: 'npx tsx src/sim/main.ts',
			cwd: root,
			url: `${LIVE.simOrigin}/`,
			env: { SIM_PORT: String(LIVE.simPort), SIM_HOST: '127.0.0.1', SIM_API_KEY: LIVE.apiKey },
			reuseExistingServer: false,
			timeout: 30_000
		},
		{
			command: 'npx tsx src/main.ts',
			cwd: root,
			url: `${LIVE.origin}/healthz`,
			env: {
				TIP_API_KEY: LIVE.apiKey,
				TIP_API_BASE_URL: `${LIVE.simOrigin}/v1`,
				TIP_WS_URL: `${LIVE.simOrigin.replace(/^http/, 'ws')}/realtime`,
				PORT: String(LIVE.port),
				HOST: '127.0.0.1',
				OVERLAY_KEY: LIVE.keys.overlay,
				CONTROL_KEY: LIVE.keys.control,
				MODERATION_FILE: join(stores, 'moderation.json'),
				SETTINGS_FILE: join(stores, 'settings.json'),
				CHAT_FILE: join(stores, 'chat.json'),
				SKIP_BUILD: '1'
			},
			reuseExistingServer: false,
			timeout: 30_000
		}
	]
});
