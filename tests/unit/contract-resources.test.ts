// The resource schemas against the upstream's resources and their fields
// and docs/upstream.md (records). Examples come from the documents (contract-examples.ts).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod/mini';
import {
	Actor,
	AiVoice,
	ApiKeyActor,
	ChatTimer,
	Counter,
	CreditBalance,
	CreditDetail,
	CustomCommand,
	describeIssues,
	Grant,
	HistoryMediaItem,
	HistoryTip,
	LeaderboardEntry,
	LinkedAccount,
	Me,
	OAuthActor,
	Overlay,
	OverlayWidget,
	parseWith,
	QueueMediaItem,
	QueueTip,
	TipGoal,
	TipGoalFields,
	Usage,
	Viewer,
	WebhookEndpoint
} from '../../src/contract/index.ts';
import * as ex from './contract-examples.ts';

/** Parses and returns the value, failing the test with the schema's message otherwise. */
function expectParses(schema: z.ZodMiniType, value: unknown): any {
	const result = parseWith(schema, value);
	if (!result.ok) throw new Error(`expected to parse, got: ${result.error}`);
	return result.value;
}

/** Expects a parse failure whose message names `path` (e.g. `items.0.amount`). */
function expectFailsAt(schema: z.ZodMiniType, value: unknown, path: string): void {
	const result = parseWith(schema, value);
	expect(result.ok).toBe(false);
	if (!result.ok) expect(result.error).toMatch(new RegExp(`(^|; )${path.replace(/\./g, '\\.')}: `));
}

const set = (obj: any, path: string, value: unknown): any => {
	const keys = path.split('.');
	let at = obj;
	for (const k of keys.slice(0, -1)) at = at[k];
	at[keys.at(-1)!] = value;
	return obj;
};

describe('every resource of the upstream parses from an example built from its shape', () => {
	it.each<[string, z.ZodMiniType, () => unknown]>([
		['GET /me for an API key', Me, ex.me],
		['GET /me for an OAuth token', Me, ex.meOAuth],
		['QueueTip', QueueTip, ex.queueTip],
		['QueueTip created through the API', QueueTip, ex.apiTip],
		['QueueTip with every nullable field null', QueueTip, ex.bareTip],
		['HistoryTip', HistoryTip, ex.historyTip],
		['QueueMediaItem', QueueMediaItem, ex.queueMedia],
		['HistoryMediaItem', HistoryMediaItem, ex.historyMedia],
		['Viewer', Viewer, ex.viewer],
		['CreditBalance', CreditBalance, ex.creditBalance],
		['credit detail', CreditDetail, ex.creditDetail],
		['Grant', Grant, ex.grant],
		['Usage', Usage, ex.usage],
		['ChatTimer', ChatTimer, ex.chatTimer],
		['CustomCommand', CustomCommand, ex.customCommand],
		['WebhookEndpoint', WebhookEndpoint, ex.webhookEndpoint],
		['a disabled WebhookEndpoint', WebhookEndpoint, ex.disabledWebhookEndpoint],
		['tip goal fields', TipGoalFields, ex.tipGoalFields],
		['OAuth actor', OAuthActor, ex.oauthActor],
		['OAuth actor as an Actor', Actor, ex.oauthActor],
		['AI voice catalog entry', AiVoice, ex.aiVoice]
	])('%s', (_name, schema, example) => {
		const value = example();
		expect(expectParses(schema, value)).toEqual(value);
	});

	it('HistoryTip is every QueueTip field plus played_at', () => {
		expectFailsAt(HistoryTip, ex.queueTip(), 'played_at');
		expect(expectParses(QueueTip, ex.historyTip()).played_at).toBe(ex.T1);
	});

	it('HistoryMediaItem is every QueueMediaItem field plus played_at', () => {
		expectFailsAt(HistoryMediaItem, ex.queueMedia(), 'played_at');
	});

	it('every tip source value of the document parses, and so does an unknown one', () => {
		for (const source of [...ex.TIP_SOURCES, 'some_future_source'])
			expectParses(QueueTip, { ...ex.queueTip(), source });
	});

	it('QueueTip.platform is twitch, kick or null', () => {
		for (const platform of ['twitch', 'kick', null])
			expectParses(QueueTip, { ...ex.queueTip(), platform });
		expectFailsAt(QueueTip, { ...ex.queueTip(), platform: 'youtube' }, 'platform');
	});

	it('QueueMediaItem accepts other requested_via values and an unknown duration of 0', () => {
		for (const requested_via of ['tip', 'chat', 'admin', 'channel_point', 'raffle'])
			expectParses(QueueMediaItem, { ...ex.queueMedia(), requested_via, video_duration: 0 });
	});

	it('a viewer list row is Viewer fields plus a credits balance', () => {
		const row = { ...ex.viewer(), credits: ex.creditBalance() };
		expect(expectParses(Viewer, row).credits).toEqual(ex.creditBalance());
		expectParses(CreditBalance, row.credits);
	});

	it('Viewer.linked_accounts is required and may be empty', () => {
		expectParses(Viewer, { ...ex.viewer(), linked_accounts: [] });
		const { linked_accounts: _gone, ...withoutLinks } = ex.viewer();
		expectFailsAt(Viewer, withoutLinks, 'linked_accounts');
	});

	it('Viewer.subscriber_tier is 0, 1, 2 or 3', () => {
		for (const tier of [0, 1, 2, 3])
			expectParses(Viewer, { ...ex.viewer(), subscriber_tier: tier });
		expectFailsAt(Viewer, { ...ex.viewer(), subscriber_tier: 4 }, 'subscriber_tier');
		expectFailsAt(Viewer, { ...ex.viewer(), subscriber_tier: 1.5 }, 'subscriber_tier');
	});

	it('a webhook endpoint on creation sits beside its whsec_ secret', () => {
		const created = { endpoint: ex.webhookEndpoint(), secret: 'whsec_c2VjcmV0' };
		expectParses(WebhookEndpoint, created.endpoint);
		expect(created.secret).toMatch(/^whsec_/);
	});

	it('ChatTimer and CustomCommand keep the limits of the field tables', () => {
		expectFailsAt(ChatTimer, { ...ex.chatTimer(), interval_minutes: 0 }, 'interval_minutes');
		expectFailsAt(ChatTimer, { ...ex.chatTimer(), interval_minutes: 1441 }, 'interval_minutes');
		expectFailsAt(ChatTimer, { ...ex.chatTimer(), min_chat_lines: 1001 }, 'min_chat_lines');
		expectFailsAt(ChatTimer, { ...ex.chatTimer(), id: 'timer_1' }, 'id');
		expectFailsAt(CustomCommand, { ...ex.customCommand(), name: 'Discord' }, 'name');
		expectFailsAt(CustomCommand, { ...ex.customCommand(), name: 'x'.repeat(51) }, 'name');
		expectFailsAt(
			CustomCommand,
			{ ...ex.customCommand(), cooldown_seconds: 3601 },
			'cooldown_seconds'
		);
		expectFailsAt(
			CustomCommand,
			{ ...ex.customCommand(), aliases: Array.from({ length: 11 }, (_, i) => `a${i}`) },
			'aliases'
		);
		expectFailsAt(WebhookEndpoint, { ...ex.webhookEndpoint(), id: 'hook_1' }, 'id');
	});

	it('the tip goal fields keep their limits', () => {
		expectParses(TipGoalFields, { ...ex.tipGoalFields(), amount: 0, title: 'x'.repeat(80) });
		expectParses(TipGoalFields, { ...ex.tipGoalFields(), amount: 1_000_000 });
		expectFailsAt(TipGoalFields, { ...ex.tipGoalFields(), amount: 1_000_001 }, 'amount');
		expectFailsAt(TipGoalFields, { ...ex.tipGoalFields(), amount: -1 }, 'amount');
		expectFailsAt(TipGoalFields, { ...ex.tipGoalFields(), title: 'x'.repeat(81) }, 'title');
	});

	it('an OAuth /me needs an oa_ authorization id', () => {
		expectFailsAt(
			Me,
			set(ex.meOAuth(), 'oauth.authorization_id', 'auth_1'),
			'oauth.authorization_id'
		);
	});
});

describe('every record the kit assumes parses from an example built from its shape', () => {
	it.each<[string, z.ZodMiniType, () => unknown]>([
		['Counter', Counter, ex.counter],
		['Overlay', Overlay, ex.overlay],
		['TipGoal', TipGoal, ex.tipGoal],
		['API key actor', ApiKeyActor, ex.apiKeyActor],
		['API key actor as an Actor', Actor, ex.apiKeyActor],
		['leaderboard supporter', LeaderboardEntry, ex.supporter]
	])('%s', (_name, schema, example) => {
		const value = example();
		expect(expectParses(schema, value)).toEqual(value);
	});

	it('every widget type the upstream names parses, and an unknown type still parses', () => {
		for (const type of ['tts', 'media', 'tip_goal', 'counter', 'celebration', 'sparkles'])
			expectParses(OverlayWidget, { id: 'w_x', type, settings: {} });
	});

	it('a widget whose settings are not an object fails naming settings', () => {
		for (const settings of [null, 'name=deaths', ['deaths'], 3])
			expectFailsAt(OverlayWidget, { id: 'w_x', type: 'counter', settings }, 'settings');
	});

	it('overlay ids are o_ followed by 8 lowercase hex characters', () => {
		for (const id of ['o_1A2B3C4D', 'o_1a2b3c4', 'o_1a2b3c4d5', 'x_1a2b3c4d', 'o_ghijklmn'])
			expectFailsAt(Overlay, { ...ex.overlay(), id }, 'id');
	});

	it('counter names are lowercase slugs of at most 64 characters', () => {
		expectParses(Counter, { ...ex.counter(), name: 'a-b_c-123' });
		expectParses(Counter, { ...ex.counter(), name: 'x'.repeat(64) });
		for (const name of ['Deaths', 'dea ths', 'dea.ths', '', 'x'.repeat(65)])
			expectFailsAt(Counter, { ...ex.counter(), name }, 'name');
	});

	it('a counter value is an integer', () => {
		expectFailsAt(Counter, { ...ex.counter(), value: 1.5 }, 'value');
	});

	it('TipGoal is the settable fields plus current', () => {
		expectFailsAt(TipGoal, ex.tipGoalFields(), 'current');
	});

	it('an actor of an unknown type still parses as an Actor', () => {
		expectParses(Actor, { type: 'dashboard_user', id: 'u_1' });
		// A union reports its failure at its own path (here the root), not inside a member.
		expect(parseWith(Actor, { id: 'u_1' })).toMatchObject({ ok: false });
	});

	it('a leaderboard supporter that never signed in has null platform fields', () => {
		expectParses(LeaderboardEntry, { ...ex.supporter(), platform: null, platform_user_id: null });
	});
});

describe('a wrong type fails with a message naming the field path', () => {
	it.each<[string, z.ZodMiniType, () => any, string, unknown]>([
		['QueueTip.amount', QueueTip, ex.queueTip, 'amount', 'five'],
		['QueueTip.order_id', QueueTip, ex.queueTip, 'order_id', 42],
		['QueueTip.is_paid', QueueTip, ex.queueTip, 'is_paid', 'yes'],
		['QueueTip.tts_url', QueueTip, ex.queueTip, 'tts_url', 'not a url'],
		['QueueTip.queued_at', QueueTip, ex.queueTip, 'queued_at', 'yesterday'],
		['HistoryTip.played_at', HistoryTip, ex.historyTip, 'played_at', 1725624000],
		['QueueMediaItem.media_start_time', QueueMediaItem, ex.queueMedia, 'media_start_time', 1.5],
		['QueueMediaItem.media_url', QueueMediaItem, ex.queueMedia, 'media_url', null],
		['Me.tenant.currency', Me, ex.me, 'tenant.currency', 978],
		['Me.key.scopes', Me, ex.me, 'key.scopes', 'tts:read'],
		['Me.key.scopes.1', Me, ex.me, 'key.scopes.1', 7],
		['Viewer.linked_accounts.0.platform', Viewer, ex.viewer, 'linked_accounts.0.platform', 'x'],
		['Viewer.first_signed_in_at', Viewer, ex.viewer, 'first_signed_in_at', '2026-13-01'],
		['CreditDetail.pending', CreditDetail, ex.creditDetail, 'pending', '1'],
		['Grant.credits', Grant, ex.grant, 'credits', 2.5],
		['Usage.last_used_at', Usage, ex.usage, 'last_used_at', 0],
		['ChatTimer.platforms', ChatTimer, ex.chatTimer, 'platforms', 'twitch'],
		['CustomCommand.enabled', CustomCommand, ex.customCommand, 'enabled', 1],
		['WebhookEndpoint.events', WebhookEndpoint, ex.webhookEndpoint, 'events', '*'],
		['Overlay.widgets.3.settings', Overlay, ex.overlay, 'widgets.3.settings', 'deaths'],
		['Overlay.width', Overlay, ex.overlay, 'width', '1920'],
		['TipGoal.current', TipGoal, ex.tipGoal, 'current', '120'],
		['Counter.updated_at', Counter, ex.counter, 'updated_at', null]
	])('%s', (_name, schema, example, path, wrong) => {
		expectFailsAt(schema, set(example(), path, wrong), path);
	});

	it('a message names every failing field at once', () => {
		const result = parseWith(QueueTip, { ...ex.queueTip(), name: 1, is_replay: 'no' });
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error).toContain('name: ');
			expect(result.error).toContain('is_replay: ');
			expect(result.error.split('; ')).toHaveLength(2);
		}
	});

	it('describeIssues puts a prefix in front of every path', () => {
		const result = QueueTip.safeParse({ ...ex.queueTip(), amount: 'five', is_paid: null });
		expect(result.success).toBe(false);
		if (!result.success) {
			const text = describeIssues(result.error, ['data', 'tip']);
			expect(text).toMatch(/^data\.tip\.amount: .+; data\.tip\.is_paid: .+$/);
		}
	});

	it('a missing required field is named too', () => {
		const { queued_at: _gone, ...tip } = ex.queueTip();
		expectFailsAt(QueueTip, tip, 'queued_at');
	});

	it('a value that is not an object fails at the root', () => {
		for (const value of [null, 'tip', 42, [ex.queueTip()]]) {
			const result = parseWith(QueueTip, value);
			expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^\(root\): /) });
		}
	});
});

describe('unknown extra fields pass through', () => {
	it('at the top level of a resource', () => {
		const tip = { ...ex.queueTip(), voice: 'nova', gif_url: 'https://example.com/x.gif' };
		expect(expectParses(QueueTip, tip)).toMatchObject({ voice: 'nova', gif_url: tip.gif_url });
	});

	it('in nested objects: tenant and key of /me, linked accounts, widgets and their settings', () => {
		const m = ex.me() as any;
		m.tenant.timezone = 'Europe/Berlin';
		m.key.created_at = ex.T0;
		m.plan = 'pro';
		expect(expectParses(Me, m)).toEqual(m);

		const v = ex.viewer() as any;
		v.linked_accounts[0].profile_image_url = 'https://example.com/k.png';
		expect(expectParses(Viewer, v).linked_accounts[0].profile_image_url).toBe(
			'https://example.com/k.png'
		);

		const o = ex.overlay() as any;
		o.widgets[3].label = 'Deaths';
		o.widgets[3].settings.color = '#ff0000';
		o.scene = 'Gaming';
		expect(expectParses(Overlay, o)).toEqual(o);
	});

	it('in records extended from others (HistoryTip, credit detail, TipGoal)', () => {
		const h = { ...ex.historyTip(), play_count: 2 };
		expect(expectParses(HistoryTip, h).play_count).toBe(2);
		const c = { ...ex.creditDetail(), expiring: 1 };
		expect(expectParses(CreditDetail, c).expiring).toBe(1);
		const g = { ...ex.tipGoal(), currency: 'EUR' };
		expect(expectParses(TipGoal, g).currency).toBe('EUR');
	});

	it('in actors of both shapes', () => {
		const oauth = { ...ex.oauthActor(), avatar: 'x' };
		expect(expectParses(Actor, oauth)).toEqual(oauth);
		const key = { ...ex.apiKeyActor(), scopes: ['tts:read'] };
		expect(expectParses(Actor, key)).toEqual(key);
	});
});

describe('nullable fields accept null and the others do not', () => {
	it.each<[string, z.ZodMiniType, () => any, string[]]>([
		[
			'QueueTip',
			QueueTip,
			ex.queueTip,
			[
				'amount',
				'message',
				'tts_url',
				'external_source',
				'external_ref',
				'platform',
				'platform_user_id'
			]
		],
		['QueueMediaItem', QueueMediaItem, ex.queueMedia, ['video_title', 'video_thumbnail']],
		['Viewer', Viewer, ex.viewer, ['login', 'display_name', 'profile_image_url']],
		['Usage', Usage, ex.usage, ['last_used_at']],
		['ChatTimer', ChatTimer, ex.chatTimer, ['interval_max_minutes']],
		['CustomCommand', CustomCommand, ex.customCommand, ['description']],
		[
			'WebhookEndpoint',
			WebhookEndpoint,
			ex.webhookEndpoint,
			['description', 'disabled_reason', 'last_success_at', 'last_failure_at']
		],
		['tip goal fields', TipGoalFields, ex.tipGoalFields, ['starts_at', 'ends_at']],
		['TipGoal', TipGoal, ex.tipGoal, ['starts_at', 'ends_at']]
	])('%s', (_name, schema, example, nullable) => {
		for (const field of nullable) expectParses(schema, { ...example(), [field]: null });
		const all = Object.fromEntries(nullable.map((f) => [f, null]));
		expectParses(schema, { ...example(), ...all });
		for (const field of Object.keys(example()).filter((f) => !nullable.includes(f)))
			expectFailsAt(schema, { ...example(), [field]: null }, field);
	});

	it('a linked account may have a null login and display name', () => {
		expectParses(LinkedAccount, {
			platform: 'kick',
			platform_user_id: '1',
			login: null,
			display_name: null
		});
	});
});
