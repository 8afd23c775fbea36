// What other features may use of connections: types, and whether a name looks like production. The manager
// itself is handed to them at activation (extension.ts).
export type { ActiveConnection, ConnectionManager } from './connectionManager';
export type { ConnectionProfile,  } from './profiles';
export { looksLikeProduction } from './profiles';
