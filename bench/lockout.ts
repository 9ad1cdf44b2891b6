// `npm run bench:lockout`: how long a tip takes from its creation to its start while sources with
// old keys keep this machine's address over the token endpoint's limit of wrong keys (FailureLimiter
// in src/server/security.ts): the target is a second, as with no wrong key at all. The simulator
// and the token endpoint in this process, the built dist/ (`npm run build` first), in the system
// Chromium (bench/browser.ts): four sources with old keys (a TTS widget, an overlay page, the
// counters, a dock), the knocking of tests/fixtures/wrong-keys.ts from this process, and a TTS
// source and the dock with the right keys. Then TIPS tips (default 20) one at a time, each read to
// its end before the next: the time from creating it to the simulator answering its start claim.
// Prints the median, p95 and max against the target, the 429 too_many_attempts the right-key pages
// were answered, and exits 1 when the target is missed or a tip did not start.
import { serveApp } from '../src/server/serve.ts';
import { startSimulator } from '../src/sim/index.ts';
import { checkSettings } from '../tests/fixtures/settings.ts';
import { knock, lockedOut } from '../tests/fixtures/wrong-keys.ts';
import { launch, openPage, type BenchPage } from './browser.ts';
import { quantile } from './lib.ts';
import { DIST, Tracker } from './stack.ts';

const TIPS = Number(process.env.TIPS ?? 20);
const TARGET_MS = 1_000;
/** A tip that has not started by then counts as missed; three missed in a row end the run. */
const START_TIMEOUT_MS = Number(process.env.START_TIMEOUT_MS ?? 10_000);
const OVERLAY_KEY = 'bench_lockout_overlay_key';
const CONTROL_KEY = 'bench_lockout_control_key';
const OLD = { overlay: 'bench_lockout_overlay_old', control: 'bench_lockout_control_old' };

const sim = await startSimulator({ quiet: true, audioDelayMs: 0 });
const tracker = new Tracker(sim);
const served = await serveApp({
	mode: 'demo',
	upstream: { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey },
	overlayKey: OVERLAY_KEY,
	controlKey: CONTROL_KEY,
	dist: DIST,
	simulatorOrigin: sim.origin,
	checkSettings
});
const origin = served.origin;
const knocking = knock(origin, OLD);
await tracker.until(() => knocking.answers.some(lockedOut), 'the address locked out', 10_000);

const b = await launch();
const fast = 'min_display=0&gap=0';
for (const path of [
	`/widget/tts?key=${OLD.overlay}&${fast}`,
	`/overlay/o_1a2b3c4d?key=${OLD.overlay}`,
	`/widget/counters?key=${OLD.overlay}`,
	`/dock?key=${OLD.control}`
])
	await (await openPage(b)).page.goto(`${origin}${path}`);

/** The 429 too_many_attempts a right-key page was answered, as `METHOD /path`. */
const lockouts: string[] = [];
async function rightKeyPage(name: string, path: string): Promise<BenchPage> {
	const p = await openPage(b);
	p.page.on('response', async (res) => {
		if (res.status() !== 429) return;
		const body = (await res.json().catch(() => null)) as { code?: unknown } | null;
		if (body?.code === 'too_many_attempts')
			lockouts.push(`${name}: ${res.request().method()} ${new URL(res.url()).pathname}`);
	});
	await p.page.goto(`${origin}${path}`);
	return p;
}
const tts = await rightKeyPage('TTS source', `/widget/tts?key=${OVERLAY_KEY}&${fast}`);
const dock = await rightKeyPage('dock', `/dock?key=${CONTROL_KEY}`);
const upSince = Date.now();
const up = await Promise.all([
	tts.waitFor(`document.querySelector('[data-testid=tts-widget][data-status=ready]')`),
	dock.waitFor(`document.querySelector('[data-testid=dock][data-connection=open]')`)
]).then(
	() => true,
	() => false
);
console.log(
	up
		? `right-key TTS source and dock up in ${Date.now() - upSince} ms`
		: 'right-key TTS source or dock not up after 30 s'
);

const took: number[] = [];
let missed = 0;
let missedInARow = 0;
for (let i = 0; i < TIPS && missedInARow < 3; i++) {
	const created = Date.now();
	const { order_id: id } = sim.control.createTip({
		name: `Viewer ${i + 1}`,
		amount: 1,
		message: `Tip ${i + 1}.`,
		paid: true
	});
	try {
		await tracker.until(() => tracker.starts.has(id), `tip ${i + 1} starts`, START_TIMEOUT_MS);
	} catch {
		missed++;
		missedInARow++;
		continue;
	}
	missedInARow = 0;
	took.push(tracker.starts.get(id)![0] - created);
	await tracker.until(() => tracker.finishes.has(id), `tip ${i + 1} read to its end`);
}

const refused = knocking.answers.filter(lockedOut).length;
await knocking.stop();
const ms = (q: number) => (took.length ? `${quantile(took, q)} ms` : '-');
const p95 = took.length ? quantile(took, 0.95) : Infinity;
const met = missed === 0 && p95 <= TARGET_MS;
console.log(
	`tip creation to start with wrong keys knocking (${took.length} of ${TIPS} tips started` +
		`${missed ? `, ${missed} not within ${START_TIMEOUT_MS} ms` : ''}): median ${ms(0.5)}, ` +
		`p95 ${ms(0.95)}, max ${took.length ? `${Math.max(...took)} ms` : '-'}; ` +
		`target ${TARGET_MS} ms: ${met ? 'met' : 'MISSED'}`
);
console.log(
	`wrong keys sent from this process: ${knocking.answers.length}, ${refused} answered 429 too_many_attempts`
);
console.log(
	`right-key pages answered 429 too_many_attempts: ${lockouts.length}` +
		(lockouts.length ? ` (first: ${[...new Set(lockouts)].slice(0, 4).join(', ')})` : '')
);
console.log(`Chromium ${b.version}`);
await b.close();
await served.close();
await sim.close();
if (!met || lockouts.length) process.exitCode = 1;
