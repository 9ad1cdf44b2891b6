// The show's controls in the dock (docs/dock.md, "Counters", "Tip goal", "Celebrate"): the counters
// and the overlays' tip goals as the upstream has them, read when the dock (re)connects and kept
// by the realtime events the OBS sources follow too (counter.updated, counter.deleted,
// overlay.tip_goal.updated). Presses go through the dock's one press (dock.svelte.ts): one at a
// time per button, with its outcome beside it. Idle, nothing runs.
import type { ApiFailure } from '../../src/client/api.ts';
import * as control from '../../src/contract/control.ts';
import type { TipGoalEdit } from '../../src/contract/control-bodies.ts';
import type { Counter, KnownEvent, Overlay, TipGoal } from '../../src/contract/index.ts';
import { actionOutcome, type Outcome } from './actions.ts';
import type { ControlClient } from './control-client.ts';

/** What a show control answers (src/client/control.ts, ControlResult). */
type ShowResult = Awaited<ReturnType<ControlClient['show']>>;

export type Press = (id: string, show: string, run: () => Promise<Outcome | null>) => Promise<void>;

/** A refusal that names the field it concerns (an upstream 400, a name taken). */
export interface FieldProblem {
	field: string;
	text: string;
}

/** What a part (counters, overlays) could not be read for, in words the streamer can act on. */
function readProblem(res: ApiFailure, scope: string): string {
	if (res.kind === 'http' && res.status === 403)
		return `The connection lacks the ${scope} scope: add it to the key in the tip service's dashboard (hosted: sign in again and allow it).`;
	return res.kind === 'network' ? 'no answer from the server' : 'could not be read: try again';
}

/** The later of two states of one counter (an answer may arrive after a newer event). */
function later(a: Counter | undefined, b: Counter): Counter {
	return a && a.updated_at > b.updated_at ? a : b;
}

export class DockShow {
	counters = $state.raw<Counter[] | null>(null);
	overlays = $state.raw<Overlay[] | null>(null);
	goals = $state.raw<Record<string, TipGoal>>({});
	problems = $state<{ counters?: string; overlays?: string }>({});
	/** The last refusal of each form that names a field, by the form's id. */
	fieldProblems = $state<Record<string, FieldProblem>>({});

	readonly #client: ControlClient;
	readonly #press: Press;

	constructor(o: { client: ControlClient; press: Press }) {
		this.#client = o.client;
		this.#press = o.press;
	}

	/** The overlays with a tip goal widget, in the upstream's order. */
	get goalOverlays(): Overlay[] {
		return (this.overlays ?? []).filter((o) => o.widgets.some((w) => w.type === 'tip_goal'));
	}

	/** Everything again (the dock opened, or its connection came back). */
	async read(): Promise<void> {
		const [counters, overlays] = await Promise.all([
			this.#client.readCounters(),
			this.#client.readOverlays()
		]);
		if (counters.ok) this.counters = sorted(counters.body.counters);
		this.problems.counters = counters.ok ? undefined : readProblem(counters, 'counters:manage');
		if (!overlays.ok) {
			this.problems.overlays = readProblem(overlays, 'overlays:manage');
			return;
		}
		this.problems.overlays = undefined;
		this.overlays = overlays.body.overlays;
		const goals = await Promise.all(
			this.goalOverlays.map(async (o) => [o.id, await this.#client.readGoal(o.id)] as const)
		);
		const next: Record<string, TipGoal> = {};
		for (const [id, res] of goals) if (res.ok) next[id] = res.body.tip_goal;
		this.goals = next;
	}

	/** A realtime event of counters or tip goals; false for any other. */
	apply(e: KnownEvent): boolean {
		if (e.type === 'counter.updated') this.#counter(e.data.counter);
		else if (e.type === 'counter.deleted')
			this.counters = (this.counters ?? []).filter((c) => c.name !== e.data.name);
		else if (e.type === 'overlay.tip_goal.updated')
			this.goals = { ...this.goals, [e.data.overlay_id]: e.data.tip_goal };
		else return false;
		return true;
	}

	#counter(counter: Counter): void {
		const list = this.counters ?? [];
		const was = list.find((c) => c.name === counter.name);
		const now = later(was, counter);
		this.counters = sorted([...list.filter((c) => c.name !== counter.name), now]);
	}

	/** +1, -1: the upstream adds (two docks pressing at once both count). */
	add(name: string, by: number): Promise<void> {
		const id = `counter-${by > 0 ? 'up' : 'down'}-${name}`;
		return this.#counterPress(id, `counter-${name}`, control.counterAdd, { name }, { by });
	}

	set(name: string, value: number): Promise<void> {
		const id = value === 0 ? `counter-reset-${name}` : `counter-set-${name}`;
		return this.#counterPress(id, `counter-${name}`, control.counterSet, { name }, { value });
	}

	create(name: string, value: number | undefined): Promise<void> {
		const body = value === undefined ? { name } : { name, value };
		return this.#counterPress('counter-new', 'counter-new', control.counterNew, {}, body);
	}

	remove(name: string): Promise<void> {
		const id = `counter-${name}`;
		return this.#press(`counter-delete-${name}`, id, async () => {
			const res = await this.#client.show(control.counterDelete, { name });
			if (res.ok) this.counters = (this.counters ?? []).filter((c) => c.name !== name);
			return this.#outcome(id, res, null);
		});
	}

	#counterPress(
		id: string,
		show: string,
		route: typeof control.counterAdd | typeof control.counterSet | typeof control.counterNew,
		params: Record<string, string>,
		body: unknown
	): Promise<void> {
		return this.#press(id, show, async () => {
			const res = await this.#client.show(route, params, body);
			if (!res.ok) return this.#outcome(show, res, null);
			this.#counter(res.body.counter);
			return this.#outcome(show, res, `${res.body.counter.name}: ${res.body.counter.value}`);
		});
	}

	/** Saves the fields of an overlay's goal that changed. */
	saveGoal(overlayId: string, edit: TipGoalEdit, id = `goal-save-${overlayId}`): Promise<void> {
		const show = `goal-${overlayId}`;
		return this.#press(id, show, async () => {
			const res = await this.#client.show(control.tipGoal, { overlayId }, edit);
			if (res.ok) this.goals = { ...this.goals, [overlayId]: res.body.tip_goal };
			return this.#outcome(show, res, 'saved: the goal widgets show it');
		});
	}

	/** "Start a new goal from now": counted from this moment, no end, on. */
	newGoal(overlayId: string): Promise<void> {
		const edit = { starts_at: new Date().toISOString(), ends_at: null, enabled: true };
		return this.saveGoal(overlayId, edit, `goal-new-${overlayId}`);
	}

	/** The celebration: every overlay (no overlay id), one overlay, or one of its widgets. */
	celebrate(overlayId?: string, widgetId?: string): Promise<void> {
		const body = overlayId
			? widgetId
				? { overlay_id: overlayId, widget_id: widgetId }
				: { overlay_id: overlayId }
			: {};
		return this.#press('celebrate', 'celebrate', async () =>
			this.#outcome('celebrate', await this.#client.show(control.celebrate, {}, body), null)
		);
	}

	/** The press's outcome; a refusal that names a field is kept for the form (`show`) too. */
	#outcome(show: string, res: ShowResult, done: string | null): Outcome {
		delete this.fieldProblems[show];
		if (res.ok)
			return done === null ? actionOutcome(res) : { kind: 'done', text: done, reread: false };
		const outcome = actionOutcome(res);
		const field = res.kind === 'http' ? (res.body as { field?: unknown } | null)?.field : undefined;
		if (typeof field === 'string') this.fieldProblems[show] = { field, text: outcome.text };
		return outcome;
	}
}

function sorted(counters: readonly Counter[]): Counter[] {
	return [...counters].sort((a, b) => a.name.localeCompare(b.name));
}
