// The OBS bridge: the claim rule table, and the state it keeps from obs-browser's window events and
// the page visibility (OBS sends nothing at load). A fake window and document stand in for CEF.
import { describe, expect, it } from 'vitest';
import { createObsBridge, mayClaim, type ClaimRule, type ObsState } from '../../src/client/obs.ts';

describe('mayClaim', () => {
	const table: Array<[ClaimRule, boolean, boolean, boolean]> = [
		// rule, visible, active, may claim
		['always', false, false, true],
		['always', true, false, true],
		['always', true, true, true],
		['visible', false, false, false],
		['visible', true, false, true],
		['visible', true, true, true],
		['active', false, false, false],
		['active', true, false, false],
		['active', true, true, true]
	];
	it.each(table)('rule %s with visible=%s active=%s: %s', (rule, visible, active, expected) => {
		expect(mayClaim(rule, { visible, active })).toBe(expected);
	});
});

class FakeDocument extends EventTarget {
	constructor(public visibilityState: 'visible' | 'hidden') {
		super();
	}
	show(visible: boolean) {
		this.visibilityState = visible ? 'visible' : 'hidden';
		this.dispatchEvent(new Event('visibilitychange'));
	}
}

class FakeWindow extends EventTarget {
	obsstudio?: unknown;
	obsEvent(name: 'obsSourceVisibleChanged' | 'obsSourceActiveChanged', detail: unknown) {
		this.dispatchEvent(new CustomEvent(name, { detail }));
	}
}

function setup(opts: { obs?: unknown; shown?: boolean } = {}) {
	const window = new FakeWindow();
	if (opts.obs !== undefined) window.obsstudio = opts.obs;
	const document = new FakeDocument(opts.shown === false ? 'hidden' : 'visible');
	const bridge = createObsBridge({ window, document });
	const seen: ObsState[] = [];
	bridge.subscribe((s) => seen.push(s));
	return { window, document, bridge, seen };
}

const obsApi = (level = 1) => ({
	pluginVersion: '2.24.0',
	getControlLevel: (cb: (level: number) => void) => cb(level)
});

describe('createObsBridge', () => {
	it('in a normal browser: not in OBS, visible and active follow the tab', () => {
		const { document, bridge, seen } = setup();
		expect(seen[0]).toEqual({
			inObs: false,
			visible: true,
			active: true,
			activeKnown: false,
			controlLevel: null,
			pluginVersion: null
		});
		document.show(false);
		expect(bridge.visible).toBe(false);
		expect(bridge.active).toBe(false);
		document.show(true);
		expect(bridge.active).toBe(true);
	});

	it('in OBS: reads the starting visibility from the document, since OBS sends no event at load', () => {
		expect(setup({ obs: obsApi(), shown: true }).bridge.visible).toBe(true);
		const hidden = setup({ obs: obsApi(), shown: false }).bridge;
		expect(hidden.visible).toBe(false);
		expect(hidden.active).toBe(false);
	});

	it('in OBS: knows the plugin version and the control level', () => {
		const { bridge } = setup({ obs: obsApi(3) });
		expect(bridge.inObs).toBe(true);
		expect(bridge.pluginVersion).toBe('2.24.0');
		expect(bridge.controlLevel).toBe(3);
	});

	it('an obs-browser without getControlLevel leaves the level unknown', () => {
		const { bridge } = setup({ obs: { pluginVersion: '2.16.0' } });
		expect(bridge.controlLevel).toBeNull();
	});

	it('follows obsSourceVisibleChanged and obsSourceActiveChanged', () => {
		const { window, bridge } = setup({ obs: obsApi() });
		// Unknown at first: assumed on air while shown.
		expect(bridge.active).toBe(true);
		expect(bridge.activeKnown).toBe(false);

		window.obsEvent('obsSourceActiveChanged', { active: false }); // Studio Mode: only in Preview
		expect(bridge.active).toBe(false);
		expect(bridge.activeKnown).toBe(true);
		expect(mayClaim('active', bridge)).toBe(false);
		expect(mayClaim('visible', bridge)).toBe(true);

		window.obsEvent('obsSourceActiveChanged', { active: true });
		expect(bridge.active).toBe(true);

		window.obsEvent('obsSourceVisibleChanged', { visible: false });
		expect(bridge.visible).toBe(false);
		expect(bridge.active).toBe(false);
	});

	it('the burst OBS sends when a source shows again (false, then true) ends in the last state', () => {
		const { window, bridge, seen } = setup({ obs: obsApi(), shown: false });
		window.obsEvent('obsSourceActiveChanged', { active: false });
		window.obsEvent('obsSourceVisibleChanged', { visible: true });
		window.obsEvent('obsSourceActiveChanged', { active: true });
		expect(bridge.visible).toBe(true);
		expect(bridge.active).toBe(true);
		expect(seen[seen.length - 1]).toMatchObject({ visible: true, active: true, activeKnown: true });
	});

	it('ignores malformed event details and notifies only on change', () => {
		const { window, seen } = setup({ obs: obsApi() });
		const before = seen.length;
		window.obsEvent('obsSourceVisibleChanged', null);
		window.obsEvent('obsSourceVisibleChanged', { visible: 'yes' });
		window.obsEvent('obsSourceActiveChanged', {});
		window.obsEvent('obsSourceVisibleChanged', { visible: true }); // already visible
		expect(seen.length).toBe(before);
	});

	it('unsubscribe and dispose stop the notifications', () => {
		const { window, document, bridge, seen } = setup({ obs: obsApi() });
		const other: ObsState[] = [];
		const unsubscribe = bridge.subscribe((s) => other.push(s));
		expect(other).toHaveLength(1); // the current state, at once
		unsubscribe();
		document.show(false);
		expect(other).toHaveLength(1);
		const count = seen.length;
		bridge.dispose();
		window.obsEvent('obsSourceVisibleChanged', { visible: true });
		expect(seen).toHaveLength(count);
		expect(bridge.visible).toBe(false);
	});
});
