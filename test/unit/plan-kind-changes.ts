// A burn alert update and a definitions update as a plan holds them: what the tests of the editor's plan view
// and plan document show.
import type { PlannedChange } from '../../src/triggerFiles';

const version = { updatedAt: '2026-11-20T00:00:00Z', sha256: 'abc' };

/** The update of an exhaustion alert's threshold, 240 -> 120 minutes, found by id or (promotion) by name. */
export const burnAlertUpdate = (matchedBy: 'id' | 'name'): PlannedChange => ({
  kind: 'burn-alert',
  action: 'update',
  file: 'burn-alerts/api/Availability.exhaustion-240min.burn-alert.json',
  index: -1,
  dataset: 'api',
  name: 'Availability, exhaustion in 240 min',
  id: 'ba_1',
  matchedBy,
  differences: [{ path: 'exhaustion_minutes', member: 'exhaustion_minutes', service: 240, local: 120 }],
  body: {},
  service: version,
});

/** The update of a dataset's duration column. */
export const definitionsUpdate: PlannedChange = {
  kind: 'definitions',
  action: 'update',
  file: 'definitions/api.definitions.json',
  index: -1,
  dataset: 'api',
  name: 'definitions of api',
  id: 'api',
  matchedBy: 'id',
  differences: [{ path: 'duration_ms.name', member: 'duration_ms', service: 'latency', local: 'duration_ms' }],
  body: {},
  service: version,
};
