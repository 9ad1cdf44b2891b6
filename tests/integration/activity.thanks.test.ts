// The thanks the kit posts in chat in the Activity (docs/activity.md): a tip read through a page's
// finish is thanked once in chat and listed once as a `thanks` entry, with who was thanked and the
// message as posted; the kit's own doing, which no event tells.
import { describe, expect, it } from 'vitest';
import { until } from '../fixtures/sim.ts';
import { activityRig, everyEntry, settles, tip } from './activity.setup.ts';

const OVERLAY_KEY = 'activity-overlay-key-0123456789abcdef';

describe('the Activity, thanks in chat', () => {
	it('lists a thanks posted for a tip read, once, with the message as posted', async () => {
		const r = await activityRig();
		const thanks = { enabled: true, template: 'Thanks {name}!', burst: 'Thanks {name}!' };
		expect((await r.dock('PUT', '/control/chat/thanks', thanks)).status).toBe(200);
		const id = await tip(r.sim, 'Ana');
		const page = (path: string) =>
			fetch(`${r.served.origin}/api${path}`, {
				method: 'POST',
				headers: { 'x-overlay-key': OVERLAY_KEY }
			});
		expect((await page(`/tts/${id}/start`)).status).toBe(200);
		expect((await page(`/tts/${id}/finish`)).status).toBe(200);
		const posted = () =>
			r.sim.control
				.chat()
				.log()
				.filter((m) => m.text.includes('Thanks Ana'));
		await until(() => posted().length === 1, 15_000);
		await settles(async () => {
			const entries = (await everyEntry(r, 'kind=thanks')).filter((e) => e.kind === 'thanks');
			expect(entries).toEqual([
				expect.objectContaining({
					kind: 'thanks',
					via: 'kit',
					name: 'Ana',
					order_id: id,
					text: posted()[0].text
				})
			]);
		});
		// A finish sent again is refused upstream: nothing more is thanked or listed.
		expect((await page(`/tts/${id}/finish`)).status).toBe(409);
		await new Promise((resolve) => setTimeout(resolve, 2500));
		expect(posted()).toHaveLength(1);
		expect((await everyEntry(r, 'kind=thanks')).filter((e) => e.kind === 'thanks')).toHaveLength(1);
	});
});
