import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractObsEngines } from './engines.ts';

const builtIndex = fileURLToPath(new URL('../../dist/index.html', import.meta.url));

// Playwright requires a default export here.
export default async function globalSetup(): Promise<void> {
	// End-to-end tests run against the built bundle, exactly what OBS would load.
	if (!existsSync(builtIndex)) throw new Error('dist/index.html is missing: run `npm run build`');

	const started = Date.now();
	const executables = await extractObsEngines();
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(`OBS engines ready (${seconds}s):\n  ${executables.join('\n  ')}`);
}
