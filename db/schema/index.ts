import type { AccountsTables } from "./accounts";
import type { ListsTables } from "./lists";
import type { IntegrationsTables } from "./integrations";
import type { BillingTables } from "./billing";
import type { ProofTables } from "./proof";
import type { ExemptionsTables } from "./exemptions";
import type { EmergencyTables } from "./emergency";
import type { CallsTables } from "./calls";
import type { DialersTables } from "./dialers";
import type { OptOutsTables } from "./opt-outs";
import type { LedgerTables } from "./ledger";

export * from "./accounts";
export * from "./lists";
export * from "./integrations";
export * from "./billing";
export * from "./proof";
export * from "./exemptions";
export * from "./emergency";
export * from "./calls";
export * from "./dialers";
export * from "./opt-outs";
export * from "./ledger";

/**
 * The whole database, one interface per area (each area owns its own file and migration).
 * Add an area by extending this interface.
 */
export interface Database
  extends
    AccountsTables,
    ListsTables,
    BillingTables,
    IntegrationsTables,
    ProofTables,
    ExemptionsTables,
    EmergencyTables,
    CallsTables,
    DialersTables,
    OptOutsTables,
    LedgerTables {}
