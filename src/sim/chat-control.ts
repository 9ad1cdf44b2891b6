// The chat bot's part of the control API under /_sim (control.ts): read what the bot said, flip
// the dashboard's switches (and lose the answers of the next messages posted), make the bot say
// something (tests of the preview's chat panel), and type a line in chat as a viewer, a subscriber,
// a moderator or the streamer (custom commands run from it: commands.ts).
import type { Hono } from 'hono';
import { z } from 'zod';
import { CHAT_ROLES, describeIssues } from '../contract/index.ts';
import type { SimChat } from './chat.ts';
import type { SimCommands } from './commands.ts';
import { SimError } from './errors.ts';

const Tenant = z.string().min(1).max(100).optional();
const SwitchBody = z.object({
	disabled: z.boolean().optional(),
	unavailable: z.boolean().optional(),
	gateway_down: z.boolean().optional(),
	channels: z
		.array(z.enum(['twitch', 'kick']))
		.max(2)
		.optional(),
	/** The next `count` messages are posted, then answered 504 with no body or after `delay_ms`. */
	lose_answers: z
		.object({
			mode: z.enum(['504', 'late']),
			count: z.number().int().min(0).max(100).default(1),
			delay_ms: z.number().int().min(0).max(120_000).default(15_000)
		})
		.optional(),
	tenant: Tenant
});
const SayBody = z.object({
	message: z.string().min(1),
	platform: z.enum(['twitch', 'kick', 'all']).default('all'),
	tenant: Tenant
});

const LineBody = z.object({
	line: z.string().min(1).max(500),
	role: z.enum(CHAT_ROLES).default('viewer'),
	login: z
		.string()
		.regex(/^[A-Za-z0-9_]{1,25}$/)
		.default('viewer1'),
	display_name: z.string().min(1).max(25).optional(),
	platform: z.enum(['twitch', 'kick']).default('twitch'),
	tenant: Tenant
});

const SIM_ACTOR = { id: 'sim_control', name: 'Simulator control' };

async function body<S extends z.ZodType>(schema: S, req: Request): Promise<z.infer<S>> {
	const raw: unknown = await req.json().catch(() => ({}));
	const r = schema.safeParse(raw);
	if (!r.success) throw new SimError(400, 'bad_request', describeIssues(r.error));
	return r.data;
}

/** What these routes need of the control API (control.ts): a tenant's chat. */
interface ChatsOf {
	chat(tenantId?: string): SimChat;
	commands(tenantId?: string): SimCommands;
}

export function chatRoutes(app: Hono, control: ChatsOf): void {
	app.get('/chat', (c) => {
		const limit = Math.min(200, Math.max(1, Number(c.req.query('limit') ?? 50) || 50));
		const chat = control.chat(c.req.query('tenant'));
		return c.json({ messages: chat.log(limit), switches: chat.switches });
	});
	app.post('/chat/switches', async (c) => {
		const b = await body(SwitchBody, c.req.raw);
		const s = control.chat(b.tenant).switches;
		if (b.disabled !== undefined) s.disabled = b.disabled;
		if (b.unavailable !== undefined) s.unavailable = b.unavailable;
		if (b.gateway_down !== undefined) s.gatewayDown = b.gateway_down;
		if (b.channels !== undefined) s.channels = [...new Set(b.channels)];
		if (b.lose_answers !== undefined)
			s.lose =
				b.lose_answers.count === 0
					? null
					: {
							mode: b.lose_answers.mode,
							count: b.lose_answers.count,
							delayMs: b.lose_answers.delay_ms
						};
		return c.json({ success: true, switches: s });
	});
	// A chat line typed by someone; the user's id is the login's, so a cooldown per user holds.
	app.post('/chat/line', async (c) => {
		const b = await body(LineBody, c.req.raw);
		const user = {
			platform_user_id: `u_${b.login.toLowerCase()}`,
			login: b.login.toLowerCase(),
			display_name: b.display_name ?? b.login,
			role: b.role
		};
		return c.json(control.commands(b.tenant).hear(b.line, user, b.platform));
	});
	// The same checks and budget as POST /chat/messages, without a credential.
	app.post('/chat/messages', async (c) => {
		const b = await body(SayBody, c.req.raw);
		control.chat(b.tenant).send(b.message, b.platform, SIM_ACTOR);
		return c.json({ success: true });
	});
}
