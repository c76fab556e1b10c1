import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { listAllUserTransactions } from "~/models/transaction.server";
import { csvResponse, toCsv } from "~/utils/csv.server";
import { formatUsd, isoDay, isoTimestamp } from "~/utils/format";
import { CSV_HEADER, parseHistoryParams } from "~/billing/transaction-history";

/**
 * GET /transaction-history/export?date=&sort=&dir=: the signed-in user's own transactions (all pages,
 * same filter and order as the screen) as transaction_history_{yyyy-MM-dd}.csv. Resource route.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const params = parseHistoryParams(new URL(request.url).searchParams);
  const rows = await listAllUserTransactions(db, { userId: user.id, date: params.date, sort: params.sort, dir: params.dir });
  const body = toCsv(
    CSV_HEADER,
    rows.map((t) => [
      t.planName || "N/A",
      formatUsd(t.amountCents),
      isoTimestamp(t.createdAt),
      isoTimestamp(t.startDate),
      isoTimestamp(t.endDate),
      t.status,
      t.description,
      t.dncAndLitigationScrubs,
      t.customDatasetRecords,
      t.transferReference,
    ]),
  );
  return csvResponse(body, `transaction_history_${isoDay(new Date())}.csv`);
}
