/**
 * The engine's face for tests outside it (`scrub-service/testing`): input files of every format and a seeded
 * random (the app's tests), the fixtures and list internals a migration's test checks a list against (db/).
 */
export * from "./input-files";
export * from "./random";
export { adminListIds, createContainer, createUser } from "./helpers";
export { ListManager } from "../lists/manager";
export { EmbeddedListStore } from "../lists/embedded-store";
export { readListNumbers } from "../lists/pg-bulk";
