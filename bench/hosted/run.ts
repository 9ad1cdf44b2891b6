// `npm run bench:hosted`: hosted mode on several instances under load. A throwaway PostgreSQL
// server, the simulator with N streamers, three instances of the hosted server (each its own
// process, each calling from its own loopback address, each reaching PostgreSQL over its Unix
// socket unless --db=tcp) and a load client that signs the streamers in and plays N x 5 browser
// sources with the widgets' client code in Node. Prints min, median and max over the runs and
// writes bench-results/hosted-latest.{json,md} (ignored); `--publish` writes them to
// bench/results/ instead (tracked) and refreshes the README's Performance table.
//
// This file runs the parts in order; the flags are read in args.ts, the processes started in
// deployment.ts, the parts are phases.ts (connect, refresh, chaos), intake.ts (the server's own
// upstream sockets), capacity.ts and flood.ts (the read flood), and the table and its budgets are
// in report.ts. The parts start once every streamer's intake is connected and the upstream has
// had no read for 5 s (intake.ts warmUp).
//
//   npm run bench:hosted                          50 streamers, 3 runs, 60 s connect window,
//                                                 5-minute refresh storm and chaos
//   npm run bench:hosted -- --quick               1 run, 15 s window, 1-minute storm and chaos
//   npm run bench:hosted -- --streamers=1000 --minutes=2 --only=connect,refresh
//   npm run bench:hosted -- --streamers=1000 --only=connect,intake   one minute at rest (--minutes)
//   npm run bench:hosted -- --only=capacity --streamers=800 --from=200 --step=50
//   npm run bench:hosted -- --only=refresh --cut=at-once   every held token dies at the same instant
//   npm run bench:hosted -- --only=refresh --db=tcp        the instances reach PostgreSQL over TCP
//   npm run bench:hosted -- --only=flood --streamers=3 --minutes=2   the read flood alone
//   npm run bench:hosted -- --only=flood --streamers=3 --xff   its balancer adds X-Forwarded-For
import { postgresMissing } from '../../tests/integration/postgres-server.ts';
import { INSTANCES, N, only, runs } from './args.ts';
import { capacity } from './capacity.ts';
import { flood } from './flood.ts';
import { log, startDeployment } from './deployment.ts';
import { intake, warmUp } from './intake.ts';
import { chaos, connect, refresh } from './phases.ts';
import { tenantOf } from './processes.ts';
import { Figures, report } from './report.ts';

if (postgresMissing()) {
	console.error(`bench:hosted: ${postgresMissing()}`);
	process.exit(2);
}

const deployment = await startDeployment();
const { client, instances, origins, pg, ready, sim } = deployment;
const figures = new Figures();

try {
	// The first instance migrates the empty database; the others start once it has.
	await instances[0].start();
	await Promise.all(instances.slice(1).map((i) => i.start()));
	log(`${INSTANCES} instances up; signing in ${N} streamers`);
	const tenants = Array.from({ length: N }, (_, i) => tenantOf(i));
	const signingIn = Date.now();
	await client.ask({ type: 'signin', instances: origins, sim: ready, streamers: N, tenants });
	log(`${N} streamers signed in in ${((Date.now() - signingIn) / 1000).toFixed(1)} s`);
	// Their intakes connect and read their views meanwhile: every part waits for them (and the
	// intake part reports how long that took).
	const warm = warmUp(deployment);
	await warm;

	for (let run = 1; run <= runs; run++) {
		log(`run ${run} of ${runs}`);
		if (only.has('connect')) await connect(deployment, figures);
		if (only.has('intake')) await intake(deployment, figures, run, warm);
		if (only.has('refresh')) await refresh(deployment, figures, run);
		if (only.has('chaos')) await chaos(deployment, figures);
		if (only.has('capacity')) await capacity(deployment, figures);
		if (only.has('flood')) await flood(deployment, figures);
	}
} finally {
	await client.ask({ type: 'sources', on: false }).catch(() => {});
	client.stop();
	await Promise.all(instances.map((i) => i.stop()));
	sim.stop();
	await pg.stop();
}

process.exit(report(figures) ? 0 : 1);
