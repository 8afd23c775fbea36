// What other features may use of connections: types, how a connection's name is shown, and whether it looks like
// production. The manager itself is handed to them at activation (extension.ts).
export type { ActiveConnection, ConnectionManager } from './connectionManager';
export type { ConnectionProfile } from './profiles';
export { connectionLabel, looksLikeProduction } from './profiles';
