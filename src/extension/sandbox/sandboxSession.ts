// What starting the local sandbox adds to the extension, decided without vscode: its connection profile,
// and the datasets and SLO ids the tree should remember for it (the service lists neither).
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

/** The sandbox's SLO ids grouped by dataset, in the order it lists them. */
export function slosByDataset(slos: readonly { dataset: string; id: string }[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const s of slos) grouped.set(s.dataset, [...(grouped.get(s.dataset) ?? []), s.id]);
  return grouped;
}
