// View models of the list widgets (recent events, top supporters): what the markup shows, owned
// by their rune classes. The components hold no state of their own.
import type { CurrencyInfo } from '../tts/format.ts';
import type { Position } from '../shared/theme-params.ts';

export type ListStatus = 'connecting' | 'ready' | 'unauthorized' | 'failing';

export interface SupporterRow {
	/** Rank and name: two supporters may share a display name. */
	key: string;
	rank: number;
	name: string;
	total: number;
	tips: number;
}

/** Theme from the URL parameters; unset values keep the stylesheet's defaults. */
export interface ListTheme {
	font?: string;
	color?: string;
	accent?: string;
	scale: number;
	position: Position;
}

export interface ListViewModel<Row> {
	status: ListStatus;
	/** Why: a refusal or failure in a sentence. */
	statusDetail: string;
	rows: Row[];
	/** Rows were read at least once (an empty list then says so). */
	loaded: boolean;
	/** The tenant's currency (GET /me); null formats plain numbers. */
	currency: CurrencyInfo | null;
}
