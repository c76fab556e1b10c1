/**
 * The benchmarks' shared fixtures (`scrub-service/bench`): generated inputs and lists, scratch databases and Redis
 * prefixes, the CLI run as a benchmark runs it. Used by the product's benchmarks (scripts/) and the engine's own
 * (scrub-service/bench/); never by the product.
 */
export * from "./data";
export * from "./scratch";
export * from "./cli";
