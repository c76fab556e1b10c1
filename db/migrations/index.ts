import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./0001_accounts";
import * as m0002 from "./0002_billing";
import * as m0003 from "./0003_lists_and_jobs";
import * as m0005scrub from "./0005_scrub_engine";
import * as m0004 from "./0004_integrations";
import * as m0006 from "./0006_list_numbers_partitions";
import * as m0007 from "./0007_scrub_proof";
import * as m0013 from "./0013_input_formats";
import * as m0010 from "./0010_list_load_attempts";
import * as m0017 from "./0017_list_kinds_from_registry";
import * as m0011 from "./0011_lookup_usage";
import * as m0018 from "./0018_lookup_usage_writers";
import * as m0019 from "./0019_calling_window";
import * as m0020 from "./0020_state_dnc_lists";
import * as m0021 from "./0021_exemptions";
import * as m0022 from "./0022_list_blocks";
import * as m0023 from "./0023_plan_state_filter";
import * as m0024 from "./0024_exemption_generations";
import * as m0025 from "./0025_canada_dncl";
import * as m0026 from "./0026_emergency_periods";
import * as m0027 from "./0027_evaluated_at";
import * as m0028 from "./0028_call_records";
import * as m0029 from "./0029_dialer_compat";
import * as m0030 from "./0030_scrub_call_purpose";
import * as m0031 from "./0031_opt_outs";
import * as m0032 from "./0032_decision_ledger";

/**
 * Static list (not a folder scan) so migrations survive bundling into the server build.
 * Append new migrations here; names sort in run order.
 */
const migrations: Record<string, Migration> = {
  "0001_accounts": m0001,
  "0002_billing": m0002,
  "0003_lists_and_jobs": m0003,
  "0005_scrub_engine": m0005scrub,
  "0004_integrations": m0004,
  "0006_list_numbers_partitions": m0006,
  "0007_scrub_proof": m0007,
  "0013_input_formats": m0013,
  "0010_list_load_attempts": m0010,
  "0017_list_kinds_from_registry": m0017,
  "0011_lookup_usage": m0011,
  "0018_lookup_usage_writers": m0018,
  "0019_calling_window": m0019,
  "0020_state_dnc_lists": m0020,
  "0021_exemptions": m0021,
  "0022_list_blocks": m0022,
  "0023_plan_state_filter": m0023,
  "0024_exemption_generations": m0024,
  "0025_canada_dncl": m0025,
  "0026_emergency_periods": m0026,
  "0027_evaluated_at": m0027,
  "0028_call_records": m0028,
  "0029_dialer_compat": m0029,
  "0030_scrub_call_purpose": m0030,
  "0031_opt_outs": m0031,
  "0032_decision_ledger": m0032,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
