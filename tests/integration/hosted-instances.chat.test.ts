// Thanks in chat on hosted instances on one PostgreSQL: whichever instance a tip's start and
// finish go through, and however many pages finish it at once, it is thanked once; the thanks
// settings saved through one instance's dock are what the other sends with; a thanks owed by an
// instance killed (SIGKILL) before it could send goes out from the one still running; a thanks
// whose answer was lost is listed as may not have gone on every instance's dock, and Send again
// pressed on both posts it once more, once; It went pressed on both takes it off once.
import { describe, expect, it } from 'vitest';
import { runChild } from '../fixtures/child.ts';
import { dockKeyIn, keyIn } from '../fixtures/hosted.ts';
import {
	call,
	dashboard,
	db,
	deployment,
	missing,
	pg,
	SECRET,
	signIn,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { chatSaid, readyTip, until } from '../fixtures/sim.ts';

useDeployments();

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
			const starts = i % 2 ? b : a;
			expect((await call(starts, 'POST', `/api/tts/${id}/start`, overlay)).status).toBe(200);
			// Two copies of the TTS page finish at once, one through each instance.
			const both = await Promise.all(
				[a, b].map((on) => call(on, 'POST', `/api/tts/${id}/finish`, overlay))
			);
			expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
			await until(() => chatSaid(sim).length === i + 1, 10_000);
		}
		await new Promise((r) => setTimeout(r, 2500));
		expect(chatSaid(sim)).toEqual(['Thank you One!', 'Thank you Two!', 'Thank you Three!']);
		const status = await (await call(b, 'GET', '/control/chat', dock)).json();
		expect(status.waiting).toBe(0);
		expect(status.recent).toHaveLength(3);
	});

	it('a thanks whose answer was lost waits for Send again or It went on every instance, and goes once', async () => {
		const { sim, apps } = await deployment(2);
		const [a, b] = apps;
		const cookie = await signIn(sim, a, b);
		const page = await dashboard(a, cookie);
		const overlay = { 'x-overlay-key': keyIn(page)! };
		const dock = { 'x-control-key': dockKeyIn(page)! };
		const thanks = { enabled: true, template: 'Thank you {name}!', burst: 'Thanks {name}!' };
		expect((await call(a, 'PUT', '/control/chat/thanks', dock, thanks)).status).toBe(200);
		sim.control.chat().switches.lose = { mode: '504', count: 1, delayMs: 0 };
		const id: string = (await readyTip(sim, { name: 'Lost', amount: 2 })).order_id;
		expect((await call(a, 'POST', `/api/tts/${id}/start`, overlay)).status).toBe(200);
		expect((await call(a, 'POST', `/api/tts/${id}/finish`, overlay)).status).toBe(200);
		// The other instance's dock lists it once the post's answer is lost.
		let unsure: { id: string; text: string }[] = [];
		for (const end = Date.now() + 15_000; unsure.length === 0 && Date.now() < end;) {
			await new Promise((r) => setTimeout(r, 50));
			unsure = (await (await call(b, 'GET', '/control/chat', dock)).json()).unsure;
		}
		expect(unsure).toEqual([expect.objectContaining({ text: 'Thank you Lost!' })]);
		expect(chatSaid(sim)).toEqual(['Thank you Lost!']);
		const again = await Promise.all(
			[a, b].map((on) => call(on, 'POST', '/control/chat/resend', dock, { id: unsure[0].id }))
		);
		expect(again.map((r) => r.status).sort()).toEqual([200, 404]);
		expect(chatSaid(sim)).toEqual(['Thank you Lost!', 'Thank you Lost!']);
		expect((await (await call(a, 'GET', '/control/chat', dock)).json()).unsure).toEqual([]);

		// Lost again, and seen in chat: It went on both instances at once takes it off once.
		sim.control.chat().switches.lose = { mode: '504', count: 1, delayMs: 0 };
		const next: string = (await readyTip(sim, { name: 'Seen', amount: 3 })).order_id;
		expect((await call(b, 'POST', `/api/tts/${next}/start`, overlay)).status).toBe(200);
		expect((await call(b, 'POST', `/api/tts/${next}/finish`, overlay)).status).toBe(200);
		unsure = [];
		for (const end = Date.now() + 15_000; unsure.length === 0 && Date.now() < end;) {
			await new Promise((r) => setTimeout(r, 50));
			unsure = (await (await call(a, 'GET', '/control/chat', dock)).json()).unsure;
		}
		expect(unsure).toEqual([expect.objectContaining({ text: 'Thank you Seen!' })]);
		const went = await Promise.all(
			[a, b].map((on) => call(on, 'POST', '/control/chat/dismiss', dock, { id: unsure[0].id }))
		);
		expect(went.map((r) => r.status).sort()).toEqual([200, 404]);
		const resent = await call(b, 'POST', '/control/chat/resend', dock, { id: unsure[0].id });
		expect(resent.status).toBe(404);
		const after = await (await call(b, 'GET', '/control/chat', dock)).json();
		expect(after.unsure).toEqual([]);
		expect(after.recent[0]).toMatchObject({
			text: 'Thank you Seen!',
			outcome: 'sent',
			code: 'seen'
		});
		expect(chatSaid(sim)).toEqual(['Thank you Lost!', 'Thank you Lost!', 'Thank you Seen!']);
	});

	it('a thanks owed by an instance killed before sending it goes out once, from the other', async () => {
		const { sim, apps, clientId } = await deployment(1);
		const [a] = apps;
		const cookie = await signIn(sim, a, a);
		const page = await dashboard(a, cookie);
		const overlay = { 'x-overlay-key': keyIn(page)! };
		const dock = { 'x-control-key': dockKeyIn(page)! };
		const thanks = { enabled: true, template: 'Thank you {name}!', burst: 'Thanks {name}!' };
		expect((await call(a, 'PUT', '/control/chat/thanks', dock, thanks)).status).toBe(200);
		const id: string = (await readyTip(sim, { name: 'Crash', amount: 4 })).order_id;
		expect((await call(a, 'POST', `/api/tts/${id}/start`, overlay)).status).toBe(200);
		const streamer = (await db!.selectFrom('streamers').select('id').executeTakeFirstOrThrow()).id;

		// Another instance finishes it, as its proxy would, and is killed the moment it is owed.
		const child = runChild('tests/fixtures/hosted-thanks-child.ts', {
			DATABASE_URL: pg!.url,
			SECRET_KEY: SECRET,
			STREAMER_ID: streamer,
			ORDER_ID: id,
			OAUTH_URL: sim.oauthUrl,
			BASE_URL: sim.baseUrl,
			WS_URL: sim.wsUrl,
			CLIENT_ID: clientId
		});
		await child.heard((line) => line === 'owed');
		expect(await child.killed()).toBe('SIGKILL');
		expect(chatSaid(sim)).toEqual([]);

		// The instance still running finds it in its next look (every 30 s) and sends it, once.
		await until(() => chatSaid(sim).length > 0, 45_000);
		await new Promise((r) => setTimeout(r, 3000));
		expect(chatSaid(sim)).toEqual(['Thank you Crash!']);
	});
});
