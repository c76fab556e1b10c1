import type { ColumnType, Generated } from "kysely";
import type { NullableTimestamp } from "./accounts";

/**
 * Stored transaction status. `paid` rows show as `active` while now is in [start_date, end_date) and as
 * `expired` afterwards (computed on read: see app/models/transactions.server.ts); `active` and `expired`
 * are accepted for completeness (imports) and read the same way.
 */
export type TransactionStatus = "active" | "paid" | "expired" | "pending" | "pendingpayment" | "failed" | "rejected";

export interface PlanFeature {
  label: string;
  available: boolean;
}

type BigintCount = ColumnType<bigint, bigint | number, bigint | number>;

export interface PlansTable {
  /** slug: beginner, business, premium */
  id: string;
  name: string;
  price_cents: number;
  currency: Generated<string>;
  period_days: Generated<number>;
  description: Generated<string>;
  /** Numbers purged per period (DNC suppression). */
  suppression_limit: BigintCount;
  /** Numbers added to containers per period. */
  container_limit: BigintCount;
  api_access: Generated<boolean>;
  /** 0023: the plan includes the purge wizard's state filter. */
  state_filter: Generated<boolean>;
  /** 0024: exemption records the account's exemption lists may hold in all (decision 176). */
  exemption_limit: Generated<bigint>;
  popular: Generated<boolean>;
  features: ColumnType<PlanFeature[], string | undefined, string>;
  sort_order: Generated<number>;
  archived: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface TransactionsTable {
  id: Generated<string>;
  user_id: string;
  plan_id: string;
  plan_name: string;
  amount_cents: number;
  currency: Generated<string>;
  /** The plan's DNC suppression allowance at purchase time. */
  dnc_and_litigation_scrubs: BigintCount;
  /** The plan's container allowance at purchase time. */
  custom_dataset_records: BigintCount;
  status: TransactionStatus;
  payment_method: Generated<string>;
  transfer_reference: string;
  description: Generated<string>;
  start_date: NullableTimestamp;
  end_date: NullableTimestamp;
  paid_at: NullableTimestamp;
  reviewed_by: string | null;
  reviewed_at: NullableTimestamp;
  review_note: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/**
 * 0011: numbers looked up through POST /api/v1/lookup, one row per user and minute (bucket_start: the minute,
 * or the plan period's start when that falls inside the minute). Summed into the DNC suppression usage.
 */
export interface LookupUsageTable {
  user_id: string;
  bucket_start: Date;
  /** 0018: the app process that counted these lookups ('' for rows written before); each writes absolute totals. */
  writer: Generated<string>;
  requests: Generated<number>;
  numbers: BigintCount;
}

export interface BillingTables {
  plans: PlansTable;
  transactions: TransactionsTable;
  lookup_usage: LookupUsageTable;
}
