// The single source of wire types for the client, the token endpoint and the simulator.
export * from './common.ts';
export * from './errors.ts';
export * from './resources.ts';
export * from './events.ts';
export * from './realtime.ts';
export * from './bodies.ts';
export * from './moderation.ts';
export * from './live.ts';
export * from './settings.ts';
export * from './webhooks.ts';
export * from './commands.ts';
// The routes one by one: `import * as routes from '.../contract/routes.ts'`.
export type { Route } from './routes.ts';
export { matchRoute, ROUTES, type RouteName } from './route-table.ts';
