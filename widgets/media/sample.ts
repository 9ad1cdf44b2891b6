// The media player's still sample (`sample=1`): its box with a video request's info over it (title,
// thumbnail, requester) and the progress bar. No video is loaded: the thumbnail is a placeholder
// drawn here (a data: URL), so the sample asks no server for anything.
import type { MediaViewModel } from './view.ts';
import { initialMediaView } from './view.ts';

// A dark frame with a play mark, 16:9 like the player (`%23`: the `#` of a colour, escaped).
const THUMBNAIL =
	"data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 18'><rect width='32' height='18' fill='%232a2d3e'/><circle cx='16' cy='9' r='2.4' fill='%23fff' fill-opacity='.15'/><path d='M15.2 7.9v2.2l1.9-1.1z' fill='%23fff'/></svg>";

export const sampleMediaView = (): MediaViewModel => ({
	...initialMediaView(),
	status: 'ready',
	now: {
		orderId: 'sample',
		title: 'Sample video request: how it looks with these settings',
		url: 'https://example.com/watch?v=sample',
		thumbnail: THUMBNAIL,
		requester: 'Sample viewer',
		// Not started: the thumbnail stands in for the picture and the info stays shown.
		started: false,
		position: 42,
		duration: 180,
		held: false,
		mirrored: false
	}
});
