/**
 * The scrub engine's shared domain: what the app (its screens, forms and queries), db/ (schema and migrations)
 * and the engine itself mean by a list type, a job status, a phone number, a registry date, a certificate.
 * Pure code, no I/O and no Node built-ins: safe in the browser bundle. Import it as `scrub-service/domain`.
 */
export * from "./list-types";
export * from "./job-status";
export * from "./lists/registry-date";
export * from "./certificate/document";
export * from "./numbers/invalid-reasons";
export { normalizePhone, parsePhone } from "./numbers/normalize";
export { US_STATES, stateOfAreaCode } from "./numbers/area-codes";
export { parseInstant } from "./calling/instant";
export { instantOf, isKnownZone, zoneOffsetMinutes } from "./calling/clock";
export * from "./evaluation";
export * from "./order";
export * from "./decision/decide";
export * from "./errors";
export { TtlCache } from "./ttl-cache";
export {
  EMERGENCY_EXCEPTIONS,
  EMERGENCY_STATUTES,
  parseEmergencyPeriod,
  stateName,
  type EmergencyPeriod,
  type EmergencyPeriodField,
  type EmergencyPeriodInput,
} from "./calling/emergency";
export { EXEMPTION_BASES, dayOfIsoDate, exemptionEndDay, isoDateOfDay, type ExemptionBasis } from "./exemption-rules/windows";
export {
  CALL_CHANNELS,
  CALL_OUTCOMES,
  DEFAULT_SUBJECT,
  MAX_CALLS_PER_REQUEST,
  MAX_CALL_TEXT,
  RETENTION_YEARS,
  checkCallRecord,
  checkCallRecords,
  retentionCutoff,
  type CallChannel,
  type CallOutcome,
  type CallRecord,
  type CallRecordError,
  type CallRecordInput,
} from "./calls/validate";
export {
  MAX_OPT_OUTS_PER_REQUEST,
  MAX_OPT_OUT_SUBJECT,
  MAX_OPT_OUT_WORDS,
  OPT_OUT_CHANNELS,
  checkOptOut,
  checkOptOuts,
  offsetMinutesOf,
  optOutChannelOf,
  type OptOut,
  type OptOutChannelName,
  type OptOutError,
  type OptOutInput,
} from "./opt-outs/validate";
export {
  HONOUR_BUSINESS_DAYS,
  HONOUR_CALENDAR_DAYS_CANADA,
  honourDeadline,
  honouredLate,
  isBusinessDay,
  optOutDeadline,
  type HonourRule,
} from "./opt-outs/business-days";
export {
  CALL_CAPS,
  CALL_PURPOSES,
  CAPS_VERSION,
  LONGEST_CAP_WINDOW_MS,
  capsFor,
  countAgainstCap,
  evaluateCaps,
  type CallCap,
  type CapChannel,
  type CapFacts,
  type CapHold,
  type CapPurpose,
  type CapRecord,
  type CapVerdict,
} from "./calling/caps";
