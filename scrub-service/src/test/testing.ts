/**
 * The engine's face for tests and benchmarks outside it (`scrub-service/testing`): input files of every format
 * and a seeded random (the app's tests, the benchmarks); in-process services on each list store, their fixtures
 * and list internals (the app's API, ops and security tests, db/'s migration tests).
 */
export * from "./input-files";
export * from "./random";
export { adminListIds, cleanupService, createContainer, createUser, REDIS_URL, startService, storeKinds, tmpDir, type StoreKind } from "./helpers";
export { insertNumberBehindTheBack } from "./list-blocks";
export { ListManager } from "../lists/manager";
export { EmbeddedListStore } from "../lists/embedded-store";
export { OLD_LAYOUT_NOTE, RedisListStore } from "../lists/redis-store";
export { readListNumbers } from "../lists/pg-bulk";
export { lookupTimeoutMs, withLookupDeadline, loopBlameMs } from "../lists/lookup";
