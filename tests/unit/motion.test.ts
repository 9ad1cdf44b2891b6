// The widgets' motion on real gsap (in Node its ticker runs on timers), driving plain objects in
// place of elements: the alert card's one timeline turns around when interrupted and rests at the
// hold while the alert is shown, the counter counts to a new value and on from where it is, and
// gsap's ticker runs no frame once nothing moves yet wakes for the next tween (shared/motion.ts).
import { gsap } from 'gsap';
import { describe, expect, it } from 'vitest';
import { countTo, stopCount, type ShownCount } from '../../widgets/counters/motion.ts';
import { cardTimeline, turnCard } from '../../widgets/tts/motion.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stand-in for the card element: gsap tweens its properties as numbers. */
function fakeCard() {
	return { autoAlpha: 0, y: 0, scale: 1 } as unknown as HTMLElement & Record<string, number>;
}

/** Samples `read()` on every gsap frame until `until()` holds. */
async function sample<T>(read: () => T, until: () => boolean): Promise<T[]> {
	const seen: T[] = [];
	const tick = () => {
		seen.push(read());
	};
	gsap.ticker.add(tick);
	await expect.poll(until, { timeout: 5000, interval: 20 }).toBe(true);
	gsap.ticker.remove(tick);
	return seen;
}

/** Calls `turn` on the first gsap frame where `when()` holds; resolves to the card's opacity then. */
function turnWhen(when: () => boolean, turn: () => void, read = () => 0): Promise<number> {
	return new Promise((resolve) => {
		const tick = () => {
			if (!when()) return;
			gsap.ticker.remove(tick);
			const value = read();
			turn();
			resolve(value);
		};
		gsap.ticker.add(tick);
	});
}

/** gsap frames run during `ms` (0 when its ticker sleeps). */
async function framesDuring(ms: number): Promise<number> {
	const before = gsap.ticker.frame;
	await wait(ms);
	return gsap.ticker.frame - before;
}

describe("gsap's ticker", () => {
	it('a tween started while it sleeps plays to its end, and it sleeps again after', async () => {
		for (let i = 0; i < 5; i++) {
			await wait(40); // asleep by now
			const o = { x: 0 };
			gsap.to(o, { x: 1, duration: 0.05 });
			await expect.poll(() => o.x, { timeout: 2000, interval: 10 }).toBe(1);
		}
		await wait(50);
		expect(await framesDuring(200)).toBe(0);
	});
});

describe('the alert card', () => {
	it('enters, holds while shown with no frame running, then leaves and reports it', async () => {
		const card = fakeCard();
		let exited = 0;
		const tl = cardTimeline(card, { fromBelow: true, onExited: () => exited++ });
		expect(card.autoAlpha).toBe(0);
		expect(card.y).toBeGreaterThan(0); // below its place, out of sight
		turnCard(tl, true);
		await expect.poll(() => tl.paused(), { timeout: 5000 }).toBe(true);
		expect([card.autoAlpha, card.y, card.scale]).toEqual([1, 0, 1]);
		await wait(50);
		expect(await framesDuring(300)).toBe(0);
		expect(exited).toBe(0);

		turnCard(tl, false);
		await expect.poll(() => exited, { timeout: 5000 }).toBe(1);
		expect(card.autoAlpha).toBe(0);
		expect(card.y).toBeGreaterThan(0); // leaves the way it came
		expect(await framesDuring(300)).toBe(0);
	});

	it('hidden during its entrance it turns back from where it is, without jumping', async () => {
		const card = fakeCard();
		let exited = 0;
		const tl = cardTimeline(card, { fromBelow: false, onExited: () => exited++ });
		turnCard(tl, true);
		const from = await turnWhen(
			() => card.autoAlpha > 0.3,
			() => turnCard(tl, false),
			() => card.autoAlpha
		);
		const path = await sample(
			() => card.autoAlpha,
			() => exited === 1
		);
		expect(path[0]).toBeLessThanOrEqual(from); // no jump to the shown pose first
		expect(path).toEqual([...path].sort((a, b) => b - a)); // only ever back toward hidden
		expect(card.autoAlpha).toBe(0);
		expect(card.y).toBeLessThan(0); // a top card goes back up
	});

	it('shown again during its exit it comes back to the hold and stays there', async () => {
		const card = fakeCard();
		let exited = 0;
		const tl = cardTimeline(card, { fromBelow: true, onExited: () => exited++ });
		turnCard(tl, true);
		await expect.poll(() => tl.paused(), { timeout: 5000 }).toBe(true);
		turnCard(tl, false);
		await expect.poll(() => card.autoAlpha < 0.9, { timeout: 5000 }).toBe(true);
		turnCard(tl, true);
		await expect.poll(() => tl.paused(), { timeout: 5000 }).toBe(true);
		expect([card.autoAlpha, card.y, card.scale]).toEqual([1, 0, 1]);
		await wait(200);
		expect(exited).toBe(0);
		expect(card.autoAlpha).toBe(1);
		tl.kill();
	});

	it('asked to show while it is already holding, it stays put', async () => {
		const card = fakeCard();
		const tl = cardTimeline(card, { fromBelow: true, onExited: () => {} });
		turnCard(tl, true);
		await expect.poll(() => tl.paused(), { timeout: 5000 }).toBe(true);
		turnCard(tl, true);
		await wait(100);
		expect([card.autoAlpha, card.y, tl.paused()]).toEqual([1, 0, true]);
		tl.kill();
	});
});

describe('a counter', () => {
	function counter(start: number) {
		const el = { scale: 1, opacity: 1 } as unknown as HTMLElement & Record<string, number>;
		const shown: ShownCount = { n: start };
		const written: number[] = [];
		const write = (n: number) => written.push(n);
		return { el, shown, written, write };
	}

	it('counts up through whole numbers and lands on the new value, with a pop', async () => {
		const c = counter(10);
		countTo(c.el, c.shown, 40, c.write);
		await expect.poll(() => c.written.at(-1), { timeout: 5000 }).toBe(40);
		expect(c.written.length).toBeGreaterThan(2);
		expect(c.written.every(Number.isInteger)).toBe(true);
		expect(c.written).toEqual([...c.written].sort((a, b) => a - b));
		// The number reads 40 (rounded) a few frames before the count ends: wait for both tweens.
		await expect
			.poll(() => gsap.isTweening(c.shown) || gsap.isTweening(c.el), { timeout: 5000 })
			.toBe(false);
		expect([c.written.at(-1), c.el.scale]).toEqual([40, 1]);
		await wait(50);
		expect(await framesDuring(300)).toBe(0);
	});

	it('a new value while it counts goes on from the number on screen, down as well', async () => {
		const c = counter(0);
		countTo(c.el, c.shown, 1000, c.write);
		let mark = 0;
		const reached = await turnWhen(
			() => (c.written.at(-1) ?? 0) > 100,
			() => {
				mark = c.written.length;
				countTo(c.el, c.shown, 5, c.write);
			},
			() => c.written.at(-1)!
		);
		await expect.poll(() => c.written.at(-1), { timeout: 5000 }).toBe(5);
		const after = c.written.slice(mark);
		expect(Math.max(...after)).toBeLessThanOrEqual(reached + 1); // no jump to 1000 first
		expect(after).toEqual([...after].sort((a, b) => b - a));
	});

	it('stopped (unmounted), it writes nothing more', async () => {
		const c = counter(0);
		countTo(c.el, c.shown, 50, c.write);
		stopCount(c.el, c.shown);
		const count = c.written.length;
		await wait(200);
		expect(c.written).toHaveLength(count);
		expect(await framesDuring(200)).toBe(0);
	});
});
