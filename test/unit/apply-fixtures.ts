// One service trigger and the planned update of its frequency, shared by the tests of applyChanges.
import { serviceVersion, type PlannedChange, type ServiceTrigger } from '../../src/triggerFiles';

/** "High latency" as the service lists it, before any write. */
export const LISTED: ServiceTrigger = {
  id: 't-1',
  name: 'High latency',
  dataset_slug: 'api',
  frequency: 300,
  updated_at: '2026-11-20T00:00:00Z',
};

/** Its frequency 300 -> 600, planned from LISTED. */
export const UPDATE: PlannedChange = {
  kind: 'trigger',
  action: 'update',
  file: 'api/high.trigger.json',
  index: -1,
  dataset: 'api',
  name: 'High latency',
  id: 't-1',
  matchedBy: 'id',
  differences: [{ path: 'frequency', member: 'frequency', service: 300, local: 600 }],
  body: { name: 'High latency', frequency: 600, disabled: false },
  service: serviceVersion(LISTED),
};
