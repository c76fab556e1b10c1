import type { Generated } from "kysely";
import type { NullableTimestamp, Timestamp } from "./accounts";

export type WebhookEventType = "scrub.completed" | "scrub.failed";
export type WebhookEventStatus = "pending" | "delivered" | "failed";

export interface IntegrationsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  description: Generated<string>;
  container_id: number | null;
  webhook_url: string | null;
  /** AES-256-GCM ciphertext (iv.tag.data, base64url) of the webhook signing secret. */
  webhook_secret_enc: string | null;
  /** First characters of the secret, shown so the customer can tell secrets apart. */
  webhook_secret_prefix: string | null;
  webhook_enabled: Generated<boolean>;
  webhook_enabled_since: Generated<Date>;
  rate_limit_enabled: Generated<boolean>;
  auto_retry_enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: NullableTimestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  integration_id: string;
  name: string;
  /** Shown in lists ("dpt_AbCd1234"); the key itself is never stored. */
  prefix: string;
  /** sha256 (hex) of the whole key. */
  key_hash: string;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface ApiRateLimitsTable {
  /** "key:<api key id>" or "integration:<integration id>" */
  bucket: string;
  window_start: Timestamp;
  count: number;
}

export interface WebhookEventsTable {
  id: Generated<string>;
  integration_id: string;
  user_id: string;
  job_id: string;
  event: WebhookEventType;
  /** The JSON body, fixed at the first attempt so every retry sends the same bytes. */
  payload: string | null;
  status: Generated<WebhookEventStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  lease_until: NullableTimestamp;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  integration_id: string;
  user_id: string;
  event: WebhookEventType;
  attempt: number;
  url: string;
  status_code: number | null;
  error: string | null;
  duration_ms: Generated<number>;
  /** When the next attempt is due (null: delivered or given up). */
  next_attempt_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface IntegrationsTables {
  integrations: IntegrationsTable;
  api_keys: ApiKeysTable;
  api_rate_limits: ApiRateLimitsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
