// Which overlay.celebration events are for this widget (docs/upstream.md, event catalog): a null
// overlay_id is every overlay, an overlay_id alone is every celebration of that overlay, and a
// widget_id is that one widget. Pure, so every case is unit-tested.

export interface CelebrationTarget {
	overlay_id: string | null;
	widget_id: string | null;
}

export interface CelebrationIdentity {
	/** The overlay this widget belongs to (`overlay` parameter); undefined when standalone. */
	overlay?: string;
	/** This widget's id in that overlay (`widget` parameter). */
	widget?: string;
}

export function targetsMe(target: CelebrationTarget, me: CelebrationIdentity): boolean {
	// One widget: only that one, whatever overlay_id says (the upstream may fill it in or not).
	if (target.widget_id !== null) return me.widget !== undefined && target.widget_id === me.widget;
	if (target.overlay_id === null) return true;
	return me.overlay !== undefined && target.overlay_id === me.overlay;
}
