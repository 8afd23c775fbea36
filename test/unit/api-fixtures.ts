// Request bodies and service responses of spec part 4, shaped as the spec and the service-facts note show them.
import type { CreateApiKeyRequest, UpdateApiKeyRequest, UpdateBurnAlertRequest } from '../../src/api';
import { CREATED_KEY_SECRET } from './api-helpers';

export const createKeyBody: CreateApiKeyRequest = {
  data: {
    type: 'api-keys',
    attributes: { key_type: 'ingest', name: 'CI ingest', disabled: false, permissions: { create_datasets: true } },
    relationships: { environment: { data: { id: 'env-1', type: 'environments' } } },
  },
};

export const createdKeyDocument = {
  data: {
    id: 'key-1',
    type: 'api-keys',
    attributes: {
      key_type: 'ingest',
      name: 'CI ingest',
      secret: CREATED_KEY_SECRET,
      disabled: false,
      permissions: { create_datasets: true },
      timestamps: { created: '2025-06-01T10:00:00Z', updated: '2025-06-01T10:00:00Z' },
    },
    relationships: {
      environment: { data: { id: 'env-1', type: 'environments' } },
      creator: { data: { id: 'user-1', type: 'users' } },
      editor: { data: { id: 'user-1', type: 'users' } },
    },
    links: { self: '/2/teams/acme/api-keys/key-1' },
  },
};

export const updateKeyBody: UpdateApiKeyRequest = {
  data: { id: 'key-1', type: 'api-keys', attributes: { name: 'CI ingest (old)', disabled: true } },
};

export const updatedKeyDocument = {
  data: {
    id: 'key-1',
    type: 'api-keys',
    attributes: {
      key_type: 'ingest',
      name: 'CI ingest (old)',
      disabled: true,
      permissions: { create_datasets: true },
      timestamps: { created: '2025-06-01T10:00:00Z', updated: '2025-06-02T10:00:00Z' },
    },
    links: { self: '/2/teams/acme/api-keys/key-1' },
  },
};

export const burnAlerts = [
  {
    id: 'ba-1',
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 240,
    description: 'budget gone in 4h',
    triggered: false,
    slo: { id: 'slo-1' },
    created_at: '2025-06-01T10:00:00Z',
    updated_at: '2025-06-01T10:00:00Z',
  },
  {
    id: 'ba-2',
    alert_type: 'budget_rate',
    budget_rate_window_minutes: 60,
    budget_rate_decrease_threshold_per_million: 5000,
    triggered: true,
    slo: { id: 'slo-1' },
    created_at: '2025-06-01T10:00:00Z',
    updated_at: '2025-06-01T10:00:00Z',
  },
];

export const updateBurnAlertBody: UpdateBurnAlertRequest = {
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 120,
  recipients: [{ id: 'rcp-1' }],
  description: 'budget gone in 2h',
};

export const updatedBurnAlert = {
  id: 'ba-1',
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 120,
  description: 'budget gone in 2h',
  triggered: false,
  slo: { id: 'slo-1' },
  recipients: [{ id: 'rcp-1', type: 'email', target: 'oncall@example.com' }],
  created_at: '2025-06-01T10:00:00Z',
  updated_at: '2025-06-02T10:00:00Z',
};

export const queryResult = {
  id: 'qr-1',
  complete: true,
  query: {
    calculations: [{ op: 'COUNT' }],
    orders: [{ op: 'COUNT', order: 'descending' }],
    limit: 100,
    time_range: 7200,
  },
  links: {
    query_url: 'http://127.0.0.1:4319/acme/datasets/api/result/qr-1',
    graph_image_url: 'http://127.0.0.1:4319/acme/datasets/api/result/qr-1/snapshot',
  },
  data: { results: [{ data: { COUNT: 42 } }] },
};

export const columns = [
  {
    id: 'c-1',
    key_name: 'duration_ms',
    type: 'float',
    description: 'span duration',
    hidden: false,
    last_written: '2025-06-01T10:00:00Z',
    created_at: '2025-05-01T10:00:00Z',
    updated_at: '2025-05-01T10:00:00Z',
  },
  {
    id: 'c-2',
    key_name: 'trace.trace_id',
    type: 'string',
    hidden: false,
    created_at: '2025-05-01T10:00:00Z',
    updated_at: '2025-05-01T10:00:00Z',
  },
];

export const triggers = [
  {
    id: 'tr-1',
    dataset_slug: 'api',
    name: 'Slow requests',
    description: 'p99 over 2s',
    threshold: { op: '>', value: 2000, exceeded_limit: 1 },
    frequency: 900,
    alert_type: 'on_change',
    disabled: false,
    triggered: false,
    recipients: [{ id: 'rcp-1' }],
    evaluation_schedule_type: 'frequency',
    query: { calculations: [{ op: 'P99', column: 'duration_ms' }], time_range: 1800 },
    created_at: '2025-06-01T10:00:00Z',
    updated_at: '2025-06-01T10:00:00Z',
  },
];

export const fullDefinitions = {
  span_id: { name: 'trace.span_id', column_type: 'column' },
  trace_id: { name: 'trace.trace_id', column_type: 'column' },
  parent_id: { name: 'trace.parent_id', column_type: 'column' },
  name: { name: 'name', column_type: 'column' },
  service_name: { name: 'service.name', column_type: 'column' },
  duration_ms: { name: 'duration_ms', column_type: 'column' },
  span_kind: null,
  annotation_type: null,
  link_trace_id: null,
  link_span_id: null,
  error: { name: 'error', column_type: 'column' },
  status: null,
  route: { name: 'http.route', column_type: 'column' },
  user: null,
  log_severity: null,
  log_message: null,
};
