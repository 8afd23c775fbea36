// What the Datasets tree model is given: the active connection and the calls it makes, what the user
// remembered, the limiter its calls share. No vscode import.
import type { ServiceClient } from '../../api/client';
import type { Limiter } from '../../api/limiter';
import type { ConnectionProfile } from '../connections';
import type { LoadFailure } from './cachedTree';
import type { KeyRegistry } from './keyRegistry';
import type { RememberedItems } from './rememberedItems';

/** The calls the tree makes; the real ServiceClient satisfies it. */
export type TreeApi = Pick<
  ServiceClient,
  'listColumns' | 'listTriggers' | 'listBurnAlerts' | 'listDatasets' | 'listSlos'
>;

export interface TreeConnection {
  profile: ConnectionProfile;
  api: TreeApi;
  /**
   * Whether this is still the active connection with the same keys. A load that fails once it is not
   * ends as cancelled, quietly: no log, no error node (e.g. the sandbox was stopped mid-load).
   */
  isCurrent?: () => boolean;
}

export interface DatasetTreeOptions {
  /** The active connection; may throw (e.g. keys missing), which shows as an error node. */
  connection: () => Promise<TreeConnection | undefined>;
  remembered: RememberedItems;
  keys: KeyRegistry;
  metricsDatasets: () => readonly string[];
  limiter: Limiter;
  /** Called for every load that failed (not for cancellations), e.g. to log it. */
  onFailure?: (failure: LoadFailure, err: unknown) => void;
  /** Called when the root loads for a connection (e.g. to read its recipients, which the tooltips name). */
  onRootLoad?: (connectionId: string) => void;
}

export function isStale(conn: TreeConnection): boolean {
  return conn.isCurrent !== undefined && !conn.isCurrent();
}
