/** The public API's stable error codes (server responses and the OpenAPI document share this list). */
export const API_ERROR_CODES = [
  "missing_api_key",
  "invalid_api_key",
  "api_key_revoked",
  "account_disabled",
  "no_plan",
  "api_not_in_plan",
  "usage_limit_exceeded",
  "too_many_active_jobs",
  "not_found",
  "method_not_allowed",
  "invalid_json",
  "unsupported_media_type",
  "payload_too_large",
  "too_many_fields",
  "insufficient_storage",
  "validation_failed",
  "result_not_ready",
  "conflict",
  "rate_limited",
  "service_unavailable",
  "internal_error",
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
