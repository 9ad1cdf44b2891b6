// A production installation: a copy of the project as a clone has it, plus what `npm run build`
// built (dist/ for the widgets, dist-server/ for the server), installed with `npm ci --omit=dev`
// (no Vite, no tsx, no Svelte compiler), started with `npm start`'s launcher. It must run the
// built server in demo mode and serve the widgets. Needs `npm run build` first (npm test builds
// before this tier); installs from npm's cache when it can (--prefer-offline).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'production-overlay-key-0123456789';
const BUILT = ['dist/index.html', 'dist-server/server/main.js'];

let copy = '';
let child: ChildProcess | null = null;

beforeAll(() => {
	const missing = BUILT.filter((f) => !existsSync(join(root, f)));
	if (missing.length) throw new Error(`run \`npm run build\` first: ${missing.join(', ')} missing`);
	copy = mkdtempSync(join(tmpdir(), 'overlay-kit-prod-'));
	// The files a clone has (tracked, as they are in the working tree), then the build output.
	const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
		.split('\0')
		.filter((f) => f && existsSync(join(root, f)));
	for (const f of tracked) {
		mkdirSync(dirname(join(copy, f)), { recursive: true });
		cpSync(join(root, f), join(copy, f), { preserveTimestamps: true });
	}
	for (const dir of ['dist', 'dist-server'])
		cpSync(join(root, dir), join(copy, dir), { recursive: true, preserveTimestamps: true });
	execFileSync(
		'npm',
		['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
		{ cwd: copy, stdio: 'pipe', timeout: 240_000 }
	);
}, 300_000);

afterAll(() => {
	child?.kill('SIGKILL');
	if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npm ci --omit=dev, then npm start', () => {
	it('installs none of the development tools', () => {
		for (const dev of ['vite', 'tsx', 'svelte', 'vitest', '@playwright/test'])
			expect(existsSync(join(copy, 'node_modules', dev)), dev).toBe(false);
	});

	it('runs the built server in demo mode and serves the widgets', async () => {
		child = spawn(process.execPath, ['src/start.js'], {
			cwd: copy,
			env: {
				...process.env,
				TIP_API_KEY: '',
				TIP_API_BASE_URL: '',
				TIP_WS_URL: '',
				HOST: '127.0.0.1',
				PORT: '0',
				OVERLAY_KEY: KEY,
				DEMO_TRAFFIC: '0'
			},
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let out = '';
		child.stdout!.on('data', (d) => (out += d));
		child.stderr!.on('data', (d) => (out += d));
		const origin = await new Promise<string>((resolve, reject) => {
			const timer = setInterval(() => {
				const m = /Listening on (http:\/\/[^\s]+)/.exec(out);
				if (m) {
					clearInterval(timer);
					resolve(m[1]);
				}
			}, 50);
			child!.once('exit', (code) => {
				clearInterval(timer);
				reject(new Error(`the server exited (${code}):\n${out}`));
			});
		});
		expect(out).not.toContain('Building');
		const health = (await (await fetch(`${origin}/healthz`)).json()) as {
			ok: boolean;
			mode: string;
		};
		expect(health).toMatchObject({ ok: true, mode: 'demo' });
		const page = await fetch(`${origin}/widget/tts?key=${KEY}`);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('<script type="module"');
		const queue = await fetch(`${origin}/api/tts/queue`, { headers: { 'X-Overlay-Key': KEY } });
		expect(queue.status).toBe(200);
	}, 60_000);
});
