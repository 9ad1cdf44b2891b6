// matchRoute: every endpoint the documents list is matched to the right route with its path
// parameters, and a path segment that is not a valid id never matches (it would otherwise reach a
// handler or, through the token endpoint, the upstream).
import { describe, expect, it } from 'vitest';
import { matchRoute, ROUTES, type RouteName } from '../../src/contract/index.ts';

const TIP = 'tip_1725624000_a1b2c3';
const MED = 'med_1042_9f8e7d';
const OVERLAY = 'o_1a2b3c4d';

// [method, path, route, params]: every endpoint of docs/upstream.md (groups the overlay kit uses)
// and of docs/upstream.md, with example ids shaped as the documents shape them.
const ENDPOINTS: [string, string, RouteName, Record<string, string>?][] = [
	['GET', '/me', 'me'],
	['GET', '/events', 'events'],
	['POST', '/realtime/token', 'realtimeToken'],
	['GET', '/tts/queue', 'ttsQueue'],
	['GET', '/tts/history', 'ttsHistory'],
	['POST', `/tts/${TIP}/start`, 'ttsStart', { orderId: TIP }],
	['POST', `/tts/${TIP}/finish`, 'ttsFinish', { orderId: TIP }],
	['POST', `/tts/${TIP}/release`, 'ttsRelease', { orderId: TIP }],
	['POST', '/tts/pause', 'ttsPause'],
	['POST', '/tts/resume', 'ttsResume'],
	['POST', '/tts/skip', 'ttsSkip'],
	['POST', '/tts/clear', 'ttsClear'],
	['DELETE', `/tts/${TIP}`, 'ttsRemove', { orderId: TIP }],
	['POST', `/tts/${TIP}/replay`, 'ttsReplay', { orderId: TIP }],
	['GET', '/media/queue', 'mediaQueue'],
	['GET', '/media/status', 'mediaStatus'],
	['GET', '/media/history', 'mediaHistory'],
	['POST', `/media/${MED}/start`, 'mediaStart', { orderId: MED }],
	['POST', `/media/${TIP}/start`, 'mediaStart', { orderId: TIP }],
	['POST', `/media/${MED}/finish`, 'mediaFinish', { orderId: MED }],
	['POST', `/media/${MED}/release`, 'mediaRelease', { orderId: MED }],
	['POST', '/media/pause', 'mediaPause'],
	['POST', '/media/resume', 'mediaResume'],
	['POST', '/media/skip', 'mediaSkip'],
	['POST', '/media/visibility', 'mediaVisibility'],
	['POST', '/media/queue', 'mediaEnqueue'],
	['GET', '/counters', 'countersList'],
	['POST', '/counters', 'counterCreate'],
	['GET', '/counters/deaths', 'counterRead', { name: 'deaths' }],
	['PUT', '/counters/deaths', 'counterSet', { name: 'deaths' }],
	['POST', '/counters/boss-kills_2/increment', 'counterIncrement', { name: 'boss-kills_2' }],
	['DELETE', '/counters/deaths', 'counterDelete', { name: 'deaths' }],
	['GET', '/overlays', 'overlaysList'],
	['GET', `/overlays/${OVERLAY}`, 'overlayRead', { overlayId: OVERLAY }],
	['DELETE', `/overlays/${OVERLAY}`, 'overlayDelete', { overlayId: OVERLAY }],
	['POST', `/overlays/${OVERLAY}/reload`, 'overlayReload', { overlayId: OVERLAY }],
	['POST', '/overlays/celebration', 'celebration'],
	['GET', `/overlays/${OVERLAY}/tip-goal`, 'tipGoalRead', { overlayId: OVERLAY }],
	['PATCH', `/overlays/${OVERLAY}/tip-goal`, 'tipGoalUpdate', { overlayId: OVERLAY }],
	['POST', `/overlays/${OVERLAY}/tip-goal/add`, 'tipGoalAdd', { overlayId: OVERLAY }],
	['GET', '/tipping', 'tipping'],
	['POST', '/tipping/open', 'tippingOpen'],
	['POST', '/tipping/close', 'tippingClose'],
	['GET', '/leaderboard', 'leaderboard'],
	['POST', '/tips', 'createTip'],
	['POST', '/chat/messages', 'chatSend'],
	['POST', '/webhook-endpoints', 'webhookCreate'],
	['GET', '/webhook-endpoints', 'webhookList'],
	['GET', '/webhook-endpoints/we_81f0', 'webhookRead', { endpointId: 'we_81f0' }],
	['DELETE', '/webhook-endpoints/we_81f0', 'webhookDelete', { endpointId: 'we_81f0' }],
	['GET', '/commands', 'commandsList'],
	['POST', '/commands', 'commandCreate'],
	['DELETE', '/commands/discord', 'commandDelete', { commandName: 'discord' }]
];

describe('matchRoute matches every documented endpoint', () => {
	it.each(ENDPOINTS)('%s %s', (method, path, name, params = {}) => {
		const match = matchRoute(method, path);
		expect(match?.name).toBe(name);
		expect(match?.route).toBe(ROUTES[name]);
		expect(match?.params).toEqual(params);
	});

	it('covers the whole route table', () => {
		const matched = new Set(ENDPOINTS.map(([, , name]) => name));
		expect(Object.keys(ROUTES).filter((n) => !matched.has(n as RouteName))).toEqual([
			'mediaRemove'
		]);
		expect(matchRoute('DELETE', `/media/${MED}`)?.name).toBe('mediaRemove');
	});

	it('accepts order ids up to 128 characters and counter names up to 64', () => {
		const long = 'tip_1_' + 'a'.repeat(122);
		expect(long).toHaveLength(128);
		expect(matchRoute('POST', `/tts/${long}/start`)?.name).toBe('ttsStart');
		expect(matchRoute('GET', `/counters/${'c'.repeat(64)}`)?.name).toBe('counterRead');
	});

	it('matches a documented path only with its method', () => {
		expect(matchRoute('POST', '/me')).toBeNull();
		expect(matchRoute('GET', `/tts/${TIP}/start`)).toBeNull();
		expect(matchRoute('DELETE', '/tts/queue')?.name).toBe('ttsRemove'); // an order id, answered 404
		expect(matchRoute('PUT', `/overlays/${OVERLAY}/tip-goal`)).toBeNull();
		expect(matchRoute('get', '/me')).toBeNull();
	});
});

describe('matchRoute rejects paths that are not exactly a documented endpoint', () => {
	it.each([
		['dot-dot as an order id', 'POST', '/tts/../start'],
		['a single dot as an order id', 'POST', '/tts/./start'],
		['an encoded slash in an order id', 'POST', '/tts/tip_1%2F..%2Fme/start'],
		['an encoded slash alone', 'POST', '/tts/%2F/start'],
		['encoded dots', 'POST', '/tts/%2e%2e/start'],
		['a space in an order id', 'POST', '/tts/tip 1/start'],
		['an encoded space in an order id', 'POST', '/tts/tip%201/start'],
		['an empty order id', 'POST', '/tts//start'],
		['an order id with a query', 'POST', '/tts/tip_1?x=1/start'],
		['an order id with a colon', 'DELETE', '/tts/tip:1'],
		['an order id starting with a hyphen', 'DELETE', '/tts/-tip_1'],
		['an order id of 129 characters', 'DELETE', `/tts/tip_1_${'a'.repeat(123)}`],
		['a non-ASCII order id', 'DELETE', '/tts/tïp_1'],
		['an overlay id with uppercase hex', 'GET', '/overlays/o_1A2B3C4D'],
		['an overlay id of 7 hex characters', 'GET', '/overlays/o_1a2b3c4'],
		['an overlay id of 9 hex characters', 'GET', '/overlays/o_1a2b3c4d5'],
		['an overlay id with another prefix', 'GET', '/overlays/x_1a2b3c4d'],
		['an overlay id that is not hex', 'GET', '/overlays/o_ghijklmn/tip-goal'],
		['an overlay name instead of an id', 'POST', '/overlays/main/reload'],
		['dot-dot as an overlay id', 'GET', '/overlays/../tip-goal'],
		['an uppercase counter name', 'GET', '/counters/Deaths'],
		['a counter name with a space', 'PUT', '/counters/boss kills'],
		['a counter name with a dot', 'DELETE', '/counters/deaths.old'],
		['a counter name of 65 characters', 'GET', `/counters/${'c'.repeat(65)}`],
		['an encoded slash in a counter name', 'POST', '/counters/a%2Fb/increment'],
		['dot-dot as a counter name', 'GET', '/counters/..'],
		['a trailing slash', 'GET', '/tts/queue/'],
		['a doubled slash', 'GET', '//tts/queue'],
		['no leading slash', 'GET', 'tts/queue'],
		['the /v1 prefix (paths are relative to the base)', 'GET', '/v1/tts/queue'],
		['a query string (matchRoute takes a pathname)', 'GET', '/tts/queue?limit=1'],
		['an extra segment', 'POST', `/tts/${TIP}/start/now`],
		['a missing segment', 'POST', '/overlays/tip-goal/add'],
		['an unknown endpoint', 'GET', '/secrets'],
		['the root', 'GET', '/'],
		['an empty path', 'GET', '']
	])('%s', (_name, method, path) => {
		expect(matchRoute(method, path)).toBeNull();
	});

	// docs/upstream.md also lists endpoints of groups the overlay kit does not use (viewers, AI
	// voices, chat timers). They are outside the route
	// table, so the simulator answers them 404 and the token endpoint never forwards them.
	it.each([
		['GET', '/viewers'],
		['GET', '/viewers/twitch:123456'],
		['GET', '/viewers/ada/rewards'],
		['POST', '/viewers/ada/credits/revoke'],
		['POST', '/ai-voices/voice_nova/disable'],
		['DELETE', '/commands/Discord'],
		['PATCH', '/commands/discord'],
		['GET', '/timers'],
		['GET', '/timers/tmr_5c1d'],
		['PATCH', '/timers/tmr_5c1d'],
		['DELETE', '/timers/tmr_5c1d'],
		['DELETE', '/webhook-endpoints/hook_1']
	])('%s %s (a group the overlay kit does not use) is outside the route table', (method, path) => {
		expect(matchRoute(method, path)).toBeNull();
	});
});
