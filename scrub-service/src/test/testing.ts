/** Test helpers of the engine that the app's tests use too (`scrub-service/testing`): input files of every format, a seeded random. */
export * from "./input-files";
export * from "./random";
