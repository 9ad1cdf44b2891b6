// The OBS bridge: whether the page runs in an OBS browser source, and whether that source is shown.
//
// What obs-browser does (README "JS Bindings", obs-browser-source.cpp, browser-app.cpp):
// - It defines `window.obsstudio` before page scripts run, with `pluginVersion` and, since
//   obs-browser 2.17 (OBS 28), `getControlLevel(cb)`. The level is the "Page permissions" setting
//   of the source: 0 NONE, 1 READ_OBS (the default), 2 READ_USER, 3 BASIC, 4 ADVANCED, 5 ALL.
// - It dispatches window CustomEvents `obsSourceVisibleChanged` with `detail: { visible }` (shown
//   anywhere: Program, Preview, a projector, the properties dialog) and `obsSourceActiveChanged`
//   with `detail: { active }` (on air in Program). The legacy `obsstudio.onVisibilityChange` and
//   `onActiveChange` callbacks are deprecated (since 2.8.5) and not needed for OBS 30+.
// - Neither event is sent at load (the browser is often created before OBS shows the source), but
//   the showing state is kept and applied to `document.visibilityState` when the page's context is
//   created, and `visibilitychange` fires on later changes. So: read visibilityState at start.
// - The active state has no such carrier: until the first `obsSourceActiveChanged` it is unknown.
//   We assume active = visible (a source shown at load is usually on air); `activeKnown` says so.
//   In Studio Mode a source that is only in Preview is then taken as active until OBS says not.
// - OBS sends no events to a source that is not showing anywhere; they arrive in a burst when it
//   shows again (a known behaviour of OBS's browser source). The state below follows them in order.
// - OBS starts CEF with `--autoplay-policy=no-user-gesture-required`: audio needs no click.

/** `never`: a spectator (the preview page) that shows what others play and claims nothing. */
export type ClaimRule = 'visible' | 'active' | 'always' | 'never';

export interface ObsState {
	/** `window.obsstudio` exists: an OBS browser source (or dock). */
	inObs: boolean;
	/** Shown anywhere (OBS) or the tab is visible (a normal browser). */
	visible: boolean;
	/** On air in Program (OBS); equal to `visible` in a normal browser. */
	active: boolean;
	/** False until OBS reported the active state (see above). */
	activeKnown: boolean;
	/** The source's page permission level, or null outside OBS / before OBS answered. */
	controlLevel: number | null;
	pluginVersion: string | null;
}

export interface ObsBridge extends Readonly<ObsState> {
	/**
	 * Calls `cb` with the current state now and after every change (the Svelte store contract, so
	 * `$bridge` works in markup). Returns the unsubscribe function.
	 */
	subscribe(cb: (state: ObsState) => void): () => void;
	/** Removes the window and document listeners. */
	dispose(): void;
}

/** The parts of `window.obsstudio` we use; everything else stays untouched. */
interface ObsStudioApi {
	pluginVersion?: unknown;
	getControlLevel?: (cb: (level: unknown) => void) => void;
}

/** The parts of `window` and `document` the bridge needs, so tests can pass fakes. */
export interface ObsEnvironment {
	window: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & { obsstudio?: unknown };
	document: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & {
		visibilityState: string;
	};
}

/** Whether a widget with this claim rule may take a queue item now. */
export function mayClaim(rule: ClaimRule, s: { visible: boolean; active: boolean }): boolean {
	switch (rule) {
		case 'always':
			return true;
		case 'never':
			return false;
		case 'visible':
			return s.visible;
		case 'active':
			return s.active;
	}
}

function defaultEnvironment(): ObsEnvironment {
	return { window, document };
}

export function createObsBridge(env: ObsEnvironment = defaultEnvironment()): ObsBridge {
	const api = (typeof env.window.obsstudio === 'object' && env.window.obsstudio) as
		ObsStudioApi | false;
	const shown = env.document.visibilityState === 'visible';
	// The bridge is the state itself (read live by the widgets) plus two methods.
	const bridge: ObsBridge & ObsState = {
		inObs: !!api,
		visible: shown,
		active: shown,
		activeKnown: false,
		controlLevel: null,
		pluginVersion: api && typeof api.pluginVersion === 'string' ? api.pluginVersion : null,
		subscribe(cb) {
			subscribers.add(cb);
			cb(stateOf(bridge));
			return () => {
				subscribers.delete(cb);
			};
		},
		dispose() {
			subscribers.clear();
			env.window.removeEventListener('obsSourceVisibleChanged', onVisible);
			env.window.removeEventListener('obsSourceActiveChanged', onActive);
			env.document.removeEventListener('visibilitychange', onVisibilityChange);
		}
	};
	const subscribers = new Set<(s: ObsState) => void>();

	const update = (patch: Partial<ObsState>) => {
		const state = stateOf(bridge);
		const next = { ...state, ...patch };
		// A source that is not shown is not on air; while OBS has not said, active follows visible.
		if (!next.visible) next.active = false;
		else if (!next.activeKnown) next.active = true;
		const changed = (Object.keys(next) as (keyof ObsState)[]).some((k) => next[k] !== state[k]);
		if (!changed) return;
		Object.assign(bridge, next);
		for (const cb of [...subscribers]) cb(next);
	};

	const onVisible = (e: Event) => {
		const visible = (e as CustomEvent<{ visible?: unknown } | null>).detail?.visible;
		if (typeof visible === 'boolean') update({ visible });
	};
	const onActive = (e: Event) => {
		const active = (e as CustomEvent<{ active?: unknown } | null>).detail?.active;
		if (typeof active !== 'boolean') return;
		// OBS only activates a shown source, so an activation also tells us it is visible.
		update(active ? { active, activeKnown: true, visible: true } : { active, activeKnown: true });
	};
	const onVisibilityChange = () => update({ visible: env.document.visibilityState === 'visible' });

	env.window.addEventListener('obsSourceVisibleChanged', onVisible);
	env.window.addEventListener('obsSourceActiveChanged', onActive);
	env.document.addEventListener('visibilitychange', onVisibilityChange);

	if (api && typeof api.getControlLevel === 'function') {
		try {
			api.getControlLevel((level) => {
				if (typeof level === 'number' && Number.isInteger(level)) update({ controlLevel: level });
			});
		} catch {
			// An older obs-browser without the call: the level stays unknown.
		}
	}

	return bridge;
}

/** The state alone: what subscribers are given (a copy: the bridge keeps changing). */
function stateOf({ subscribe: _subscribe, dispose: _dispose, ...state }: ObsBridge): ObsState {
	return state;
}
