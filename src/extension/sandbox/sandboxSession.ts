// What starting the local sandbox adds to the extension, decided without vscode: its connection profile.
// Its datasets, SLOs and recipients are read from its listings, as from any service's.
import type { SandboxInfo } from '../../sandbox/types';
import type { ConnectionProfile } from '../connections';

export const SANDBOX_CONNECTION_ID = 'sandbox';

export function sandboxProfile(info: SandboxInfo): ConnectionProfile {
  return {
    id: SANDBOX_CONNECTION_ID,
    name: 'Sandbox',
    baseUrl: info.baseUrl,
    uiUrl: info.uiUrl,
    team: info.team,
    environmentId: info.environmentId,
  };
}
