// The TTS widget's still sample (`sample=1`): one alert for placing and theming the widget, in the
// look of the tier its amount (or kind) falls in.
import { SAMPLE_CURRENCY } from '../shared/sample.ts';
import type { TtsParams } from './params.ts';
import { alertStyle } from './tiers.ts';
import { initialTtsView, type TtsViewModel } from './view.ts';

export function sampleTtsView(params: TtsParams): TtsViewModel {
	const tip = {
		amount: params.sample_kind === 'sub' ? null : params.sample_amount,
		is_sub_reward: params.sample_kind === 'sub',
		is_replay: params.sample_kind === 'replay'
	};
	const style = alertStyle(params.alertTiers, tip, params.min_display);
	return {
		...initialTtsView(),
		status: 'ready',
		alert: {
			id: 'sample',
			name: 'Sample viewer',
			amount: tip.amount,
			currency: SAMPLE_CURRENCY,
			message: 'This is how a tip looks with these settings. Thanks for the stream!',
			isSubReward: tip.is_sub_reward,
			isReplay: tip.is_replay,
			style
		},
		alertVisible: true
	};
}
