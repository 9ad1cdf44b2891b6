// The custom commands' calls (docs/upstream.md, custom commands): list, create, delete. Only the
// token endpoint makes them (the dock's Commands section); never forwarded for a page.
import { z } from 'zod/mini';
import { CommandCreateRequest, CommandName } from './commands.ts';
import { CustomCommand } from './resources.ts';
import { route } from './routes.ts';

const CommandsBody = z.looseObject({ commands: z.array(CustomCommand) });
const CommandBody = z.looseObject({ command: CustomCommand });
const Success = z.looseObject({ success: z.boolean() });

export const commandsList = /*@__PURE__*/ route('commandsList', {
	method: 'GET',
	path: '/commands',
	scope: 'commands:manage',
	response: CommandsBody
});
export const commandCreate = /*@__PURE__*/ route('commandCreate', {
	method: 'POST',
	path: '/commands',
	scope: 'commands:manage',
	request: CommandCreateRequest,
	response: CommandBody,
	status: 201
});
export const commandDelete = /*@__PURE__*/ route('commandDelete', {
	method: 'DELETE',
	path: '/commands/:commandName',
	scope: 'commands:manage',
	params: { commandName: CommandName },
	response: Success
});
