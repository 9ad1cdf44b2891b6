// The Chromium builds that OBS Studio embeds, taken from npm packages of serverless Chromium.
// OBS 30 ships Chromium 103 and OBS 31/32 ship 127, so a widget that works in these two (and in a
// current Chromium) works in every OBS browser source we support.
//
// Why not the packages' own `executablePath()`: both versions extract to the same /tmp/chromium,
// so whichever ran first would silently be used for both. Here each version gets its own directory
// under node_modules/.cache/obs-engines/, keyed by the package version so an upgrade re-extracts.
// The shared system libraries these binaries need come from Debian's `chromium` package.
import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';

/** A current Chromium: Debian's package, or any other binary given by CHROMIUM_PATH. */
export const systemChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for every engine (e2e, bench, chaos page). OBS browser sources allow autoplay, so we do
 * too; the rest keep Chromium from reaching the network or doing background work on a CI machine
 * without a GPU.
 */
export const chromiumArgs: readonly string[] = [
	'--no-sandbox',
	'--autoplay-policy=no-user-gesture-required',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--no-first-run',
	'--disable-sync'
];

export interface ObsEngine {
	/** Playwright project name. */
	project: string;
	/** The Chromium major version the build reports. */
	major: number;
	/** npm alias that holds the compressed build. */
	packageName: string;
	/** Brotli-compressed tarballs in the package's bin/ beside chromium.br. */
	tarballs: readonly string[];
}

export const obsEngines: readonly ObsEngine[] = [
	{
		project: 'obs30-chromium103',
		major: 103,
		packageName: '@sparticuz/chromium-103',
		tarballs: ['swiftshader.tar.br']
	},
	{
		project: 'obs31-chromium127',
		major: 127,
		packageName: '@sparticuz/chromium-127',
		tarballs: ['swiftshader.tar.br', 'fonts.tar.br']
	}
];

const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheRoot = join(root, 'node_modules', '.cache', 'obs-engines');
const require = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);
// The tarball's own fonts.conf points at /tmp/fonts (the serverless layout), so we write our own.
const fontconfigName = 'fontconfig-with-system-fonts.conf';
// A temporary directory this old was left by an extraction that was killed.
const abandonedAfterMs = 60 * 60 * 1000;

function packageDir(engine: ObsEngine): string {
	return dirname(require.resolve(`${engine.packageName}/package.json`));
}

/** The directory an engine is extracted to; it only ever appears complete (see `ensureEngine`). */
export function engineDir(engine: ObsEngine): string {
	const { version } = JSON.parse(readFileSync(join(packageDir(engine), 'package.json'), 'utf8'));
	return join(cacheRoot, `chromium-${version}`);
}

/** Where the binary will be; known before extraction so the Playwright config can name it. */
export function engineExecutable(engine: ObsEngine): string {
	return join(engineDir(engine), 'chromium');
}

/**
 * Environment for launching an engine. The 127 build bundles Open Sans for serverless machines
 * that have no fonts; we add it to the system's fonts rather than replace them, so text renders
 * as it does in OBS on a desktop.
 */
export function engineEnv(engine: ObsEngine): Record<string, string> {
	// Decided from the package, not the disk: the config is read before globalSetup extracts.
	const hasFonts = engine.tarballs.includes('fonts.tar.br');
	return hasFonts ? { FONTCONFIG_FILE: join(engineDir(engine), fontconfigName) } : {};
}

async function brotliToFile(source: string, target: string): Promise<void> {
	await pipeline(
		createReadStream(source, { highWaterMark: 1 << 23 }),
		createBrotliDecompress({ chunkSize: 1 << 21 }),
		createWriteStream(target, { mode: 0o755 })
	);
	await chmod(target, 0o755);
}

async function brotliTarExtract(source: string, targetDir: string): Promise<void> {
	// Through a file rather than a pipe: tar may exit once it sees the end-of-archive blocks, and
	// a pipe still being written then fails with EPIPE.
	const archive = join(targetDir, `${basename(source, '.br')}.partial`);
	await brotliToFile(source, archive);
	// The tarballs were made on Amazon Linux as ec2-user with some world-writable entries; as root,
	// tar would keep that owner and those modes.
	await execFileAsync('tar', [
		'-xf',
		archive,
		'--no-same-owner',
		'--no-same-permissions',
		'-C',
		targetDir
	]);
	await rm(archive);
}

function fontconfigFile(dir: string): string {
	return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
	<include ignore_missing="yes">/etc/fonts/fonts.conf</include>
	<dir>${join(dir, 'fonts')}</dir>
	<cachedir>${join(dir, 'fontconfig-cache')}</cachedir>
</fontconfig>
`;
}

async function removeAbandonedExtractions(dir: string): Promise<void> {
	const prefix = `${basename(dir)}.tmp-`;
	for (const name of await readdir(cacheRoot)) {
		const path = join(cacheRoot, name);
		if (!name.startsWith(prefix)) continue;
		const { mtimeMs } = await stat(path);
		if (Date.now() - mtimeMs > abandonedAfterMs) await rm(path, { recursive: true, force: true });
	}
}

/**
 * Extracts one engine if it is not there yet and returns the binary's path. Idempotent and safe
 * when several processes race: each extracts into its own temporary directory and renames it into
 * place; the loser of the rename discards its copy.
 */
export async function ensureEngine(engine: ObsEngine): Promise<string> {
	const dir = engineDir(engine);
	const executable = engineExecutable(engine);
	if (existsSync(executable)) return executable;

	await mkdir(cacheRoot, { recursive: true });
	await removeAbandonedExtractions(dir);
	const tmp = await mkdtemp(`${dir}.tmp-`);
	try {
		const bin = join(packageDir(engine), 'bin');
		await Promise.all([
			brotliToFile(join(bin, 'chromium.br'), join(tmp, 'chromium')),
			...engine.tarballs.map((tarball) => brotliTarExtract(join(bin, tarball), tmp))
		]);
		if (existsSync(join(tmp, 'fonts'))) {
			await writeFile(join(tmp, fontconfigName), fontconfigFile(dir));
		}
		await chmod(tmp, 0o755);
		try {
			await rename(tmp, dir);
		} catch (error) {
			// Another process finished first (the target is a non-empty directory): use its copy.
			if (!existsSync(executable)) throw error;
		}
	} finally {
		await rm(tmp, { recursive: true, force: true });
	}
	return executable;
}

/** Extracts every OBS engine (run once from Playwright's globalSetup, before any launch). */
export async function extractObsEngines(): Promise<string[]> {
	return Promise.all(obsEngines.map(ensureEngine));
}
