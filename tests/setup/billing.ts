import type { Insertable } from "kysely";
import type { TransactionsTable } from "db/schema/billing";

type TransactionRow = Insertable<TransactionsTable>;

/** A transactions row for the Beginner plan, awaiting payment and never reviewed; `values` set the rest. */
export function transactionRow(values: Pick<TransactionRow, "user_id" | "transfer_reference"> & Partial<TransactionRow>): TransactionRow {
  return {
    plan_id: "beginner",
    plan_name: "Beginner",
    amount_cents: 10000,
    dnc_and_litigation_scrubs: 100000,
    custom_dataset_records: 25000,
    status: "pendingpayment",
    start_date: null,
    end_date: null,
    paid_at: null,
    reviewed_by: null,
    reviewed_at: null,
    review_note: null,
    ...values,
  };
}
