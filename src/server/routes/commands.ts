// The dock's Commands section (docs/dock.md, Commands): GET /control/commands and
// POST /control/commands/:command (commands/manage.ts).
import { Hono } from 'hono';
import { isCommandKey } from '../../core/commands.ts';
import type { CallerEnv } from '../caller.ts';
import { changeCommand, commandsAnswer } from '../commands/manage.ts';
import type { CommandsStore } from '../commands/store.ts';
import type { ControlLock } from '../control-lock.ts';
import { HttpError } from '../http-error.ts';
import { serve } from './control-input.ts';

export function commandRoutes(store: CommandsStore, lock: ControlLock): Hono<CallerEnv> {
	const app = new Hono<CallerEnv>();
	serve(app, 'commands', async (c) => c.json(await commandsAnswer(store, c.var.caller.streamer)));
	serve(app, 'changeCommand', async (c, { params, body }) => {
		const key = params.command;
		if (!isCommandKey(key)) throw new HttpError(404, 'not_a_command', `no command ${key}`);
		const { streamer, upstream } = c.var.caller;
		return c.json(await changeCommand({ store, lock }, streamer, upstream, key, body));
	});
	return app;
}
