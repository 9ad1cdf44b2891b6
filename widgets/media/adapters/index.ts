// Which adapter plays a classified source (src/core/media-source.ts); unsupported has none.
import type { MediaSource } from '../../../src/core/media-source.ts';
import { html5Adapter } from './html5.ts';
import type { MediaAdapter } from './types.ts';
import { youtubeAdapter } from './youtube.ts';

export function adapterFor(source: MediaSource): MediaAdapter | null {
	if (source.kind === 'file') return html5Adapter(source.url);
	if (source.kind === 'youtube') return youtubeAdapter(source.videoId);
	return null;
}
