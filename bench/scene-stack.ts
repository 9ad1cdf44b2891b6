// The product as `npm start` runs it, for the scene bench (bench/scene.ts): each part its own
// process on a free loopback port, serving the built dist/. Demo mode: the token endpoint with its
// embedded simulator (src/main.ts without TIP_API_KEY; its /healthz names the simulator's origin).
// Live mode: the simulator alone (src/sim/main.ts, what `npm run sim` runs) standing in for the
// real upstream, and the token endpoint in live mode in front of it (TIP_API_KEY, TIP_API_BASE_URL,
// TIP_WS_URL). Stores (moderation, settings, chat) are files in a fresh temp folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_API_KEY } from '../src/sim/auth.ts';
import { freePort } from '../tests/fixtures/ports.ts';
import type { SceneKeys } from '../tests/fixtures/scene.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface SceneStack {
	mode: 'demo' | 'live';
	origin: string;
	simOrigin: string;
	apiKey: string;
	keys: SceneKeys;
	close(): Promise<void>;
}

const KEYS: SceneKeys = {
	overlay: 'bench_scene_overlay_key_0123456789',
	control: 'bench_scene_control_key_0123456789'
};

/** The environment of a child: ours without any upstream setting, then `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
	const inherited = { ...process.env };
	for (const name of Object.keys(inherited))
		if (/^(TIP_|OAUTH_|SIM_|HOSTED$|DEMO_TRAFFIC$)/.test(name)) delete inherited[name];
	return { ...inherited, ...env };
}

function start(file: string, env: Record<string, string>): ChildProcess {
	const child = spawn(process.execPath, ['--import', 'tsx', file], {
		cwd: root,
		env: childEnv(env),
		stdio: ['ignore', 'ignore', 'inherit']
	});
	child.once('exit', (code, signal) => {
		if (code !== null && code !== 0) console.error(`bench: ${file} exited with ${code ?? signal}`);
	});
	return child;
}

/** Waits until `url` answers 200 (the child is listening), for 30 s at most. */
async function up(url: string): Promise<Response> {
	const end = Date.now() + 30_000;
	for (;;) {
		const res = await fetch(url).catch(() => null);
		if (res?.ok) return res;
		if (Date.now() > end) throw new Error(`bench: ${url} did not answer within 30 s`);
		await new Promise((r) => setTimeout(r, 200));
	}
}

function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		child.once('exit', () => resolve());
		child.kill('SIGTERM');
	});
}

export async function startSceneStack(mode: 'demo' | 'live'): Promise<SceneStack> {
	const stores = mkdtempSync(join(tmpdir(), 'tok-bench-scene-'));
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	const children: ChildProcess[] = [];
	const endpointEnv = {
		PORT: String(port),
		HOST: '127.0.0.1',
		OVERLAY_KEY: KEYS.overlay,
		CONTROL_KEY: KEYS.control,
		MODERATION_FILE: join(stores, 'moderation.json'),
		SETTINGS_FILE: join(stores, 'settings.json'),
		CHAT_FILE: join(stores, 'chat.json'),
		SKIP_BUILD: '1'
	};
	let simOrigin: string;
	if (mode === 'live') {
		const simPort = await freePort();
		simOrigin = `http://127.0.0.1:${simPort}`;
		children.push(start('src/sim/main.ts', { SIM_PORT: String(simPort), SIM_HOST: '127.0.0.1' }));
		await up(`${simOrigin}/`);
		children.push(
			start('src/main.ts', {
				...endpointEnv,
				TIP_API_KEY: DEMO_API_KEY,
				TIP_API_BASE_URL: `${simOrigin}/v1`,
				TIP_WS_URL: `${simOrigin.replace(/^http/, 'ws')}/realtime`
			})
		);
		await up(`${origin}/healthz`);
	} else {
		children.push(start('src/main.ts', { ...endpointEnv, DEMO_TRAFFIC: '0' }));
		const health = (await (await up(`${origin}/healthz`)).json()) as { simulator?: string };
		if (!health.simulator) throw new Error('bench: /healthz names no simulator in demo mode');
		simOrigin = health.simulator;
	}
	return {
		mode,
		origin,
		simOrigin,
		apiKey: DEMO_API_KEY,
		keys: KEYS,
		close: async () => {
			for (const child of children.reverse()) await stop(child);
			rmSync(stores, { recursive: true, force: true });
		}
	};
}
