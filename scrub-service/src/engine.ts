/**
 * The scrub engine's public face (`import … from "scrub-service"`): the ScrubService contract and its handle,
 * the engine's logs and metrics, the exemption-list store, certificate keys and verification, the Redis target's
 * description, and the pure pieces the app's live lookup runs (normalize, calling window, exemption windows).
 * The service's two implementations are loaded on demand: `scrub-service/in-process`, `scrub-service/http-client`
 * and `scrub-service/local-socket`. The shared domain (list types, job statuses, phone parsing…) is
 * `scrub-service/domain`. Nothing outside scrub-service/ imports its src/ or dist/ by path (tests/lint).
 */
export * from "./service";
export * from "./ops/log";
export * from "./ops/metrics";
export * from "./ops/readiness";
export * from "./ops/gauges";
export * from "./ops/endpoints";
export * from "./exemptions";
export { exemptionReadStats, readExemptionRows, todayDay } from "./exemption-files/file";
export type { ExemptionInput } from "./exemption-files/read";
export type { ExemptionIndex } from "./exemption-rules/decide";
export * from "./certificate/keys";
export { verifyCertificate, type FileDigests, type Verification, type VerifyOptions } from "./certificate/verify";
export { describeRedisTarget, parseClusterNodes, redisTargetFromEnv, type RedisTarget } from "./lists/redis-client";
export { engineConfigOf, engineConfigSchema, engineConfigVariables, parseEngineConfig, useEngineConfig, type EngineConfig } from "./config";
export { hugePagesOfThisProcess } from "./huge-pages";
export { normalizeBytes, NUMBER_KINDS, type NumberKind } from "./numbers/normalize";
export { callingClassOf, callingClassTable } from "./calling/exchanges";
export { parseInstant } from "./calling/instant";
export { readListFreshness, freshnessOfSuppression, refusesStaleLists, staleListRefusal } from "./lists/freshness";
export { CALLING_RULES, CALLING_RULES_HISTORY, CALLING_RULES_VERSION, type CallingRule, type CallingRulesRelease } from "./calling/rules";
export type { Holiday, Observance } from "./calling/holidays";
export { evaluateCalling, isoSecond } from "./calling/window";
export { callingNote, evaluateClass, NO_TIME_ZONE_NOTE, type ClassVerdict } from "./calling/note";
export { cappedCalling, classCalling } from "./decision/calling-caps";
export type { ExemptionRow } from "./exemption-rules/parse";
export { EXEMPTION_BASES, exemptionApplies, exemptionEndDay, isoDateOfDay } from "./exemption-rules/windows";
export * from "./emergency-periods";
export {
  cachedWithEmergencyPeriods,
  emergencyExemptionApplies,
  periodsAround,
  stateOfClass,
  withEmergencyPeriods,
  type EmergencyClassTable,
  type EmergencyPeriod,
} from "./calling/emergency";
export {
  callHistoryOf,
  deleteReservedCall,
  dropExpiredCalls,
  ensureCallMonths,
  listNumberCalls,
  recordCalls,
  reserveCalls,
  type CallCounts,
  type HistoryRecord,
  type Reservation,
  type ReservationKind,
  type NumberCalls,
  type StoredCall,
} from "./calls/store";
export { callFileHeader, importCallFile, type CallImportResult } from "./calls/import";
export { callCountersOf, useCallCounters, COUNTER_RETAIN_MS, type CallCounterStore } from "./calls/counters";
export { EmbeddedCallCounters } from "./calls/counters-embedded";
export { RedisCallCounters } from "./calls/counters-redis";
export { callCountersFor, closeCallCountersOf, replaceCallCountersOf } from "./calls/counters-setup";
export { liveHistoryOf, reserveLive } from "./calls/live";
export { ensureInternalDncList, internalDncListId } from "./opt-outs/internal-list";
export { OPT_OUT_FILE_COLUMNS, readOptOutFile, type OptOutFileCheck } from "./opt-outs/import";
export {
  CALL_FILE_FIELDS,
  CallFileError,
  CsvRowSplitter,
  VICIDIAL_COLUMNS,
  callFileLayout,
  callOfRow,
  type CallFileField,
  type CallFileMapping,
} from "./calls/file-rows";
export {
  chainEntries,
  checkDayHead,
  dayHeadCanonical,
  entryCanonical,
  entryHash,
  GENESIS_HASH,
  LEDGER_EXPORT_FORMAT,
  LEDGER_HEAD_FORMAT,
  LEDGER_KINDS,
  ledgerExportProblem,
  signDayHead,
  verifyLedgerExport,
  verifyChainProof,
  verifyLedgerText,
  entryDigest,
  isLink,
  linkHash,
  type ChainProof,
  type LedgerLink,
  type LedgerDraft,
  type LedgerEntry,
  type LedgerEntryKind,
  type LedgerExport,
  type LedgerVerification,
  type SignedDayHead,
} from "./ledger/chain";
export {
  appendLedger,
  dropExpiredLedger,
  entryOfRow,
  exportLedger,
  LedgerExportTooLarge,
  ledgerEntriesOfNumber,
  ledgerIdOf,
  ledgerRetentionCutoff,
  MAX_EXPORT_ENTRIES,
  publishedDayHeads,
  signLedgerDays,
} from "./ledger/store";
export { flushLedger, ledgerQueue, LedgerQueue } from "./ledger/buffer";
export { exemptionListDraft, listVersionDraft, MAX_NUMBERS_NAMED, optOutDraft, optOutHonouredDraft, scrubDraft } from "./ledger/drafts";
export { buildDossier, DossierTooLarge, MAX_DOSSIER_LINKS } from "./ledger/dossier";
export { dossierPdf } from "./ledger/dossier-pdf";
export { DOSSIER_FORMAT, verifyDossierText, type NumberDossier } from "./ledger/dossier-doc";
