import type { AccountsTables } from "./accounts";
import type { ListsTables } from "./lists";

export * from "./accounts";
export * from "./lists";

/**
 * The whole database, one interface per area (each area owns its own file and migration).
 * Add an area by extending this interface.
 */
export interface Database extends AccountsTables, ListsTables {}
