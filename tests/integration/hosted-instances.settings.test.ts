// Stored settings through two hosted instances on one PostgreSQL: a save made
// through one instance's dock reaches a page's push channel (GET /live) on the other, which then
// reads the new set; another streamer's key never reads them and their pages never hear of them;
// and when the instances' LISTEN connections are lost, an open page is told once to read again and
// later saves still arrive. The store itself on both databases: hosted-store.settings.test.ts.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { LISTEN_APPLICATION_NAME } from '../../src/hosted/push-channel.ts';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { DEMO_TENANTS } from '../../src/sim/index.ts';
import { dockKeyIn, keyIn } from '../fixtures/hosted.ts';
import {
	call,
	dashboard,
	db,
	deployment,
	missing,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { openLiveAt } from '../fixtures/token-endpoint.ts';
import { until } from '../fixtures/sim.ts';

useDeployments();

/** A page's push channel on `on`: what it has heard so far (`heard.text`). */
const listen = (on: HostedApp, key: string) => openLiveAt(on.origin, key);

/** Two streamers signed in on a deployment of two instances: each one's keys. */
async function twoStreamers() {
	const { sim, apps } = await deployment(2, undefined, { tenants: DEMO_TENANTS });
	const [a, b] = apps;
	const keys = [];
	for (const tenant of DEMO_TENANTS.slice(0, 2)) {
		const page = await dashboard(a, await signIn(sim, a, b, tenant.id));
		keys.push({ overlay: keyIn(page)!, control: { 'x-control-key': dockKeyIn(page)! } });
	}
	return { a, b, keys };
}

const stored = async (on: HostedApp, key: string) =>
	(await call(on, 'GET', '/settings', { 'x-overlay-key': key })).json();

describe.skipIf(missing)(
	'stored settings on several hosted instances',
	{ timeout: 150_000 },
	() => {
		it('a save on one instance reaches a page on the other; another streamer never sees it', async () => {
			const { a, b, keys } = await twoStreamers();
			const [mine, theirs] = keys;
			const page = await listen(b, mine.overlay);
			const other = await listen(b, theirs.overlay);

			const saved = await call(a, 'PUT', '/control/settings/tts', mine.control, {
				values: { accent: 'gold', look: 'neon' },
				base_revision: 0
			});
			expect(saved.status).toBe(200);
			await until(() => page.heard.text.includes('"type":"settings"'));
			expect(page.heard.text).toContain('{"type":"settings","target":"tts","version":1}');
			expect(await stored(b, mine.overlay)).toEqual({
				revision: 1,
				targets: { tts: { accent: 'gold', look: 'neon' } }
			});

			// The other streamer's key reads their own (none), and their control key changes only theirs.
			expect(await stored(b, theirs.overlay)).toEqual({ revision: 0, targets: {} });
			const undoTheirs = await call(b, 'POST', '/control/settings/tts/undo', theirs.control);
			expect(undoTheirs.status).toBe(409);
			await call(b, 'PUT', '/control/settings/media', theirs.control, {
				values: { volume: '0.2' }
			});
			await until(() => other.heard.text.includes('"type":"settings"'));
			expect(other.heard.text).not.toContain('"target":"tts"');

			// Undo on the other instance: heard where the save was made.
			const back = await listen(a, mine.overlay);
			const undone = await call(b, 'POST', '/control/settings/tts/undo', mine.control);
			expect(await undone.json()).toEqual({ revision: 2, target: 'tts', values: {}, undo: 0 });
			await until(() => back.heard.text.includes('"version":2'));
			expect(await stored(a, mine.overlay)).toEqual({ revision: 2, targets: {} });
			for (const s of [page, other, back]) await s.close();
		});

		it('after the LISTEN connections are lost an open page is told once to read again, and saves still arrive', async () => {
			const { a, b, keys } = await twoStreamers();
			const [mine] = keys;
			const page = await listen(b, mine.overlay);
			const killed = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended
			from pg_stat_activity where application_name = ${LISTEN_APPLICATION_NAME}`.execute(db!);
			// One LISTEN connection per instance, shared by moderation and settings.
			expect(killed.rows).toHaveLength(2);
			// Told once LISTEN is back on its instance: from then on every change is heard.
			await until(() => page.heard.text.includes('"resync"'), 20_000);
			const saved = await call(a, 'PUT', '/control/settings/recent', mine.control, {
				values: { limit: '3' }
			});
			expect(saved.status).toBe(200);
			await until(() => page.heard.text.includes('"target":"recent"'));
			// The instance's one LISTEN came back once, before the save was heard: the page was told once.
			expect(page.heard.text.match(/"resync"/g)).toHaveLength(1);
			expect(await stored(b, mine.overlay)).toMatchObject({ targets: { recent: { limit: '3' } } });
			await page.close();
		});
	}
);
