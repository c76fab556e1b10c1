/*
 * The live lookup's request budget (decision 111), stated by the API reference, the OpenAPI document and the
 * Integrations page, enforced by lookup-rate-limit.server.ts. Lookups do not count against the API's 1000
 * requests per key and hour (decision 051).
 */

/** Sustained lookup requests per second, per key (and per integration with its rate-limit toggle on). */
export const LOOKUP_REQUESTS_PER_SECOND = 200;
/** Requests a bucket holds when full: a client idle for 2 s may send this many at once. */
export const LOOKUP_BURST = 400;
