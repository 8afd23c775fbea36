// What other features may use of connections: types only. The manager itself is handed to them at
// activation (extension.ts).
export type { ActiveConnection, ConnectionManager } from './connectionManager';
export type { ConnectionProfile, ConnectionSecrets } from './profiles';
