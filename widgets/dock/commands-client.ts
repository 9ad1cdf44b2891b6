// The Commands section's calls (docs/dock.md, "Chat commands"), through the dock's /control client:
// the kit's commands with their last runs, and one turned on or off, renamed or given another
// permission. Apart from control-client.ts so that their schemas load with the section's own chunk
// (Commands.svelte).
import type { ControlApi } from '../../src/client/control.ts';
import type { CommandPermission } from '../../src/contract/commands.ts';
import * as routes from '../../src/contract/control-commands.ts';

/** What a change asks for: on or off, and the trigger and permission it is to have. */
export interface CommandChange {
	on: boolean;
	trigger?: string;
	permission?: CommandPermission;
}

export class CommandsClient {
	readonly #control: ControlApi;

	constructor(control: ControlApi) {
		this.#control = control;
	}

	/** GET /control/commands. */
	list() {
		return this.#control.call(routes.commands);
	}

	/** POST /control/commands/:command: created or deleted upstream, and the commands after it. */
	change(key: string, change: CommandChange) {
		return this.#control.call(routes.changeCommand, { params: { command: key }, body: change });
	}
}
