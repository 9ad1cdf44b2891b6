// Thanks in chat on two hosted instances on one PostgreSQL: whichever instance a tip's start and
// finish go through, and however many pages finish it at once, it is thanked once; the thanks
// settings saved through one instance's dock are what the other sends with.
import { describe, expect, it } from 'vitest';
import { dockKeyIn, keyIn } from '../fixtures/hosted.ts';
import {
	call,
	dashboard,
	deployment,
	missing,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { readyTip, until, type Sim } from '../fixtures/sim.ts';

useDeployments();

const said = (sim: Sim) =>
	sim.control
		.chat()
		.log()
		.map((m) => m.text)
		.reverse();

describe.skipIf(missing)('thanks in chat on several hosted instances', { timeout: 150_000 }, () => {
	it('thanks each tip once, whichever instances and pages finish it', async () => {
		const { sim, apps } = await deployment(2);
		const [a, b] = apps;
		const cookie = await signIn(sim, a, b);
		const page = await dashboard(a, cookie);
		const overlay = { 'x-overlay-key': keyIn(page)! };
		const dock = { 'x-control-key': dockKeyIn(page)! };
		const thanks = { enabled: true, template: 'Thank you {name}!', burst: 'Thanks {name}!' };
		expect((await call(b, 'PUT', '/control/chat/thanks', dock, thanks)).status).toBe(200);
		expect(await (await call(a, 'GET', '/control/chat', dock)).json()).toMatchObject({
			thanks: { enabled: true, template: 'Thank you {name}!' }
		});

		for (const [i, name] of ['One', 'Two', 'Three'].entries()) {
			const id: string = (await readyTip(sim, { name, amount: 3 })).order_id;
			const [starts, finishes] = i % 2 ? [b, a] : [a, b];
			expect((await call(starts, 'POST', `/api/tts/${id}/start`, overlay)).status).toBe(200);
			// Two copies of the TTS page finish at once, one through each instance.
			const both = await Promise.all(
				[a, b].map((on) =>
					call(on === finishes ? finishes : on, 'POST', `/api/tts/${id}/finish`, overlay)
				)
			);
			expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
			await until(() => said(sim).length === i + 1, 10_000);
		}
		await new Promise((r) => setTimeout(r, 2500));
		expect(said(sim)).toEqual(['Thank you One!', 'Thank you Two!', 'Thank you Three!']);
		const status = await (await call(b, 'GET', '/control/chat', dock)).json();
		expect(status.waiting).toBe(0);
		expect(status.recent).toHaveLength(3);
	});
});
