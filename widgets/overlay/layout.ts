// Where each widget of an upstream overlay sits on the overlay's canvas: the widget's own settings
// (x, y, width, height in overlay pixels) when present, else a sensible default per type.
import type { Overlay, OverlayWidget } from '../../src/contract/index.ts';

export interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** The widget types this build can show; the others are left out (and listed in the preview). */
export const SUPPORTED_TYPES = ['tts', 'media', 'counter', 'celebration', 'tip_goal'] as const;

const num = (v: unknown): number | undefined =>
	typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

/** Defaults as fractions of the canvas: TTS across the top, media top right, goal and counters low. */
const DEFAULTS: Record<string, Box> = {
	tts: { x: 0, y: 0, width: 1, height: 0.45 },
	media: { x: 0.6, y: 0.05, width: 0.35, height: 0.4 },
	tip_goal: { x: 0.05, y: 0.85, width: 0.5, height: 0.1 },
	counter: { x: 0.75, y: 0.7, width: 0.2, height: 0.25 },
	celebration: { x: 0, y: 0, width: 1, height: 1 }
};

export function widgetBox(overlay: Overlay, widget: OverlayWidget): Box {
	const d = DEFAULTS[widget.type] ?? { x: 0, y: 0, width: 1, height: 1 };
	const s = widget.settings;
	const box = {
		x: num(s.x) ?? d.x * overlay.width,
		y: num(s.y) ?? d.y * overlay.height,
		width: num(s.width) ?? d.width * overlay.width,
		height: num(s.height) ?? d.height * overlay.height
	};
	// Keep every box on the canvas, whatever the settings say.
	box.x = Math.min(box.x, overlay.width - 1);
	box.y = Math.min(box.y, overlay.height - 1);
	box.width = Math.max(1, Math.min(box.width, overlay.width - box.x));
	box.height = Math.max(1, Math.min(box.height, overlay.height - box.y));
	return box;
}
