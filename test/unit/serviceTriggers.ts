// Triggers as the service lists them, for the tests of drift, sync and apply: COUNT over 10 minutes, every
// 5 minutes, above `value`; `more` sets or overrides members.
import type { ServiceTrigger } from '../../src/triggerFiles';

export const serviceTrigger = (
  id: string,
  name: string,
  dataset = 'api',
  value = 5,
  more: Partial<ServiceTrigger> = {},
): ServiceTrigger => ({
  id,
  name,
  dataset_slug: dataset,
  threshold: { op: '>', value, exceeded_limit: 1 },
  frequency: 300,
  alert_type: 'on_change',
  disabled: false,
  triggered: false,
  recipients: [],
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
  created_at: '2024-01-01T00:00:00Z',
  ...more,
});
