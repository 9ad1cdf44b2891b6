// The Chromium builds that OBS Studio embeds, taken from npm packages of serverless Chromium.
// OBS 30 ships Chromium 103 and OBS 31/32 ship 127, so a widget that works in these two (and in a
// current Chromium) works in every OBS browser source we support.
//
// Why not the packages' own `executablePath()`: both versions extract to the same /tmp/chromium,
// so whichever ran first would silently be used for both. Here each version gets its own directory
// under node_modules/.cache/obs-engines/, keyed by the package version so an upgrade re-extracts.
// The shared system libraries these binaries need come from Debian's `chromium` package.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';

export interface ObsEngine {
	/** Playwright project name. */
	project: string;
	/** The Chromium major version the build reports. */
	major: number;
	/** npm alias that holds the compressed build. */
	packageName: string;
	/** Brotli-compressed tarballs in the package's bin/ beside chromium.br. */
	tarballs: string[];
}

export const obsEngines = [
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
] as const satisfies readonly ObsEngine[];

const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheRoot = join(root, 'node_modules', '.cache', 'obs-engines');
const require = createRequire(import.meta.url);

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
	const fontsConf = join(engineDir(engine), 'fonts.conf');
	return existsSync(fontsConf) ? { FONTCONFIG_FILE: fontsConf } : {};
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
	// The tarballs were made on Amazon Linux as ec2-user; as root, tar would chown to that uid.
	const tar = spawn('tar', ['-x', '--no-same-owner', '-C', targetDir], {
		stdio: ['pipe', 'inherit', 'inherit']
	});
	const exited = new Promise<void>((resolve, reject) => {
		tar.once('error', reject);
		tar.once('close', (code) =>
			code === 0 ? resolve() : reject(new Error(`tar -x ${source} exited with ${code}`))
		);
	});
	await Promise.all([
		pipeline(createReadStream(source), createBrotliDecompress(), tar.stdin),
		exited
	]);
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
	const tmp = await mkdtemp(`${dir}.tmp-`);
	try {
		const bin = join(packageDir(engine), 'bin');
		await Promise.all([
			brotliToFile(join(bin, 'chromium.br'), join(tmp, 'chromium')),
			...engine.tarballs.map((tarball) => brotliTarExtract(join(bin, tarball), tmp))
		]);
		if (existsSync(join(tmp, 'fonts'))) await writeFile(join(tmp, 'fonts.conf'), fontconfigFile(dir));
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

/** Playwright globalSetup: extract every OBS engine once before any worker launches one. */
export default async function extractObsEngines(): Promise<void> {
	const started = Date.now();
	const paths = await Promise.all(obsEngines.map(ensureEngine));
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(`OBS engines ready in ${seconds}s:\n  ${paths.join('\n  ')}`);
}
