/**
 * The clips under public/demo/ that the simulator queues as media requests, so the media widget
 * can be tried without YouTube. How they were made: public/demo/README.md.
 */
export interface DemoVideo {
	/** Path from the site root; the simulator joins it to its own origin to build `media_url`. */
	file: string;
	title: string;
	/** Whole seconds, measured with ffprobe (Opus pre-skip makes 5.008 s read as 5). */
	duration: number;
	/** Path from the site root of a 320x180 JPEG, for `video_thumbnail`. */
	thumbnail: string;
}

export const demoVideos: readonly DemoVideo[] = [
	{
		file: '/demo/countdown.webm',
		title: 'Countdown 5 to 0',
		duration: 6,
		thumbnail: '/demo/countdown.jpg'
	},
	{
		file: '/demo/bars.webm',
		title: 'Bars and tone',
		duration: 5,
		thumbnail: '/demo/bars.jpg'
	},
	{
		file: '/demo/bounce.webm',
		title: 'Bouncing ball (silent)',
		duration: 8,
		thumbnail: '/demo/bounce.jpg'
	}
];
