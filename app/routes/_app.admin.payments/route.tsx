import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { ADMIN_ROLES, requireRole } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { confirmPayment, rejectPayment } from "~/billing/review-payment.server";
import { listTransfersForReview, ReviewConflictError, type ReviewFilter } from "~/models/transaction.server";
import { PageHeader } from "~/components/ui/page-header";
import { Pagination, paginationBelowClass } from "~/components/ui/pagination";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { formatDate, formatUsd } from "~/utils/format";
import { DataTable, EmptyTableRow, type DataTableColumn } from "~/components/ui/data-table";
import { StatusBadge } from "~/components/ui/status-badge";
import { DateOnly } from "~/components/ui/date-time";

export const meta: MetaFunction = () => [{ title: "Payments · Data Purging Tool" }];

const DENIED = "You need Admin or SuperAdmin role to review payments.";
const PAGE_SIZE = 20;

const querySchema = z.object({
  filter: z.enum(["pending", "reviewed", "all"]).catch("pending"),
  q: z.string().max(200).catch(""),
  page: z.coerce.number().int().min(1).max(100000).catch(1),
  review: z.string().max(100).optional().catch(undefined),
});

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("paid"), transactionId: z.uuid({ error: "Choose a transaction." }) }),
  z.object({
    intent: z.literal("reject"),
    transactionId: z.uuid({ error: "Choose a transaction." }),
    note: z.string().trim().max(500, "Keep the reason under 500 characters.").optional(),
  }),
]);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ADMIN_ROLES, DENIED);
  const db = await getDb();
  const params = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { rows, total } = await listTransfersForReview(db, { filter: params.filter as ReviewFilter, q: params.q, page: params.page, pageSize: PAGE_SIZE });
  return {
    ...params,
    total,
    pageSize: PAGE_SIZE,
    rows: rows.map((r) => ({
      id: r.id,
      userEmail: r.userEmail,
      userName: r.userName,
      company: r.company,
      planName: r.planName,
      amountCents: r.amountCents,
      status: r.status,
      reference: r.transferReference,
      createdAt: r.createdAt.toISOString(),
      reviewedAt: r.reviewedAt?.toISOString() ?? null,
      reviewerEmail: r.reviewerEmail,
      reviewNote: r.reviewNote,
      startDate: r.startDate?.toISOString() ?? null,
      endDate: r.endDate?.toISOString() ?? null,
      paymentMethod: r.paymentMethod,
    })),
  };
}

function backTo(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("review");
  return `/admin/payments${url.search}`;
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, ADMIN_ROLES, DENIED);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  try {
    const review = PAYMENT_INTENTS[v.intent] as (request: Request, adminId: string, v: Review) => Promise<Response>;
    return await review(request, admin.id, v);
  } catch (e) {
    if (e instanceof ReviewConflictError) {
      if (e.code === "not_found") return data(submission.reply({ formErrors: [e.message] }), { status: 404 });
      // Another admin was quicker: show the list as it is now.
      return redirect(backTo(request), {
        headers: { "Set-Cookie": await flashToast(request, { kind: "error", title: "Payment Not Updated", description: e.message }) },
      });
    }
    throw e;
  }
}

type Review = z.infer<typeof schema>;

/** One named function per review intent; each answers with a redirect back to the list and a toast. */
const PAYMENT_INTENTS: { [I in Review["intent"]]: (request: Request, adminId: string, v: Extract<Review, { intent: I }>) => Promise<Response> } = {
  paid: async (request, adminId, v) => {
    const t = await confirmPayment(await getDb(), { transactionId: v.transactionId, adminId });
    return redirect(backTo(request), {
      headers: {
        "Set-Cookie": await flashToast(request, {
          kind: "success",
          title: "Payment Confirmed",
          description: `${t.planName} plan active for ${t.userEmail} until ${formatDate(t.endDate)}.`,
        }),
      },
    });
  },
  reject: async (request, adminId, v) => {
    const t = await rejectPayment(await getDb(), { transactionId: v.transactionId, adminId, note: v.note });
    return redirect(backTo(request), {
      headers: {
        "Set-Cookie": await flashToast(request, { kind: "info", title: "Payment Rejected", description: `Transfer ${t.transferReference} was rejected.` }),
      },
    });
  },
};

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

function ReviewPanel({ row, closeTo }: { row: Row; closeTo: string }) {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [rejectForm, rejectFields] = useForm({
    id: `reject-${row.id}`,
    lastResult: lastResult && (lastResult as { initialValue?: { intent?: string } }).initialValue?.intent === "reject" ? lastResult : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <section aria-labelledby="review-title" className="mb-6 rounded-xl border border-blue-200 bg-white p-5 shadow-sm" data-testid="review-panel">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="review-title" className="text-lg font-semibold">
            Review transfer <span className="font-mono">{row.reference}</span>
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {row.userName || row.userEmail} ({row.userEmail}
            {row.company ? `, ${row.company}` : ""}) · {row.planName} plan · {formatUsd(row.amountCents)} · requested <DateOnly value={row.createdAt} />
          </p>
          <p className="mt-1 text-sm text-slate-600">
            Check that {formatUsd(row.amountCents)} with the reference {row.reference} reached the account. Marking it paid activates the plan for 30 days from
            now and e-mails the customer.
          </p>
        </div>
        <Link to={closeTo} className="text-sm text-slate-500 hover:underline">
          Close
        </Link>
      </div>
      {row.status === "pendingpayment" ? (
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          <Form method="post" className="rounded-lg border border-green-200 bg-green-50 p-4">
            <input type="hidden" name="intent" value="paid" />
            <input type="hidden" name="transactionId" value={row.id} />
            <p className="text-sm text-green-900">The transfer arrived in full.</p>
            <button type="submit" className={`${buttonClass} mt-3 bg-green-600 hover:bg-green-700`} disabled={busy}>
              Mark as Paid
            </button>
          </Form>
          <Form method="post" {...getFormProps(rejectForm)} className="rounded-lg border border-red-200 bg-red-50 p-4">
            <input type="hidden" name="intent" value="reject" />
            <input type="hidden" name="transactionId" value={row.id} />
            <label htmlFor={rejectFields.note.id} className="block text-sm text-red-900">
              Reason (sent to the customer, optional)
            </label>
            <input {...getInputProps(rejectFields.note, { type: "text" })} className={`${inputClass} mt-1`} maxLength={500} />
            <FieldErrors id={rejectFields.note.errorId} errors={rejectFields.note.errors} />
            <button type="submit" className={`${buttonClass} mt-3 bg-red-600 hover:bg-red-700`} disabled={busy}>
              Reject
            </button>
          </Form>
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-600">
          Already reviewed: <StatusBadge status={row.status} shape="boldCompact" />
          {row.reviewerEmail ? ` by ${row.reviewerEmail}` : ""}{" "}
          {row.reviewedAt ? (
            <>
              on <DateOnly value={row.reviewedAt} />
            </>
          ) : (
            ""
          )}
          .
        </p>
      )}
    </section>
  );
}

const PAYMENT_COLUMNS: DataTableColumn[] = [
  { label: "Reference" },
  { label: "Customer" },
  { label: "Plan" },
  { label: "Amount" },
  { label: "Requested" },
  { label: "Status" },
  { label: "Reviewed" },
  { label: <span className="sr-only">Actions</span> },
];

export default function AdminPayments() {
  const { rows, total, page, pageSize, filter, q, review } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const link = (patch: Record<string, string | null>) => {
    const p = new URLSearchParams(searchParams);
    for (const [k, v] of Object.entries(patch)) {
      if (v == null) p.delete(k);
      else p.set(k, v);
    }
    const s = p.toString();
    return `/admin/payments${s ? `?${s}` : ""}`;
  };
  const actionResult = useActionData<typeof action>();
  const actionErrors = (actionResult as { error?: Record<string, string[] | null> } | undefined)?.error;
  const topErrors = actionErrors ? Object.values(actionErrors).flatMap((v) => v ?? []) : undefined;
  const selected = review ? rows.find((r) => r.id === review) : undefined;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const tabs: Array<[string, string]> = [
    ["pending", "Pending"],
    ["reviewed", "Reviewed"],
    ["all", "All"],
  ];
  return (
    <div>
      <PageHeader title="Payments" subtitle="Review bank transfers: mark them paid to activate the plan, or reject them." />
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <nav className="flex gap-1 rounded-lg bg-slate-100 p-1" aria-label="Filter">
          {tabs.map(([value, label]) => (
            <Link
              key={value}
              to={link({ filter: value, page: null, review: null })}
              aria-current={filter === value ? "page" : undefined}
              className={`rounded-md px-3 py-1.5 text-sm font-medium ${filter === value ? "bg-white shadow-sm" : "text-slate-600 hover:text-slate-900"}`}
            >
              {label}
            </Link>
          ))}
        </nav>
        <Form method="get" className="flex gap-2">
          <input type="hidden" name="filter" value={filter} />
          <label htmlFor="payments-q" className="sr-only">
            Search
          </label>
          <input id="payments-q" name="q" defaultValue={q} placeholder="Reference, email or company" className={`${inputClass} w-64`} />
          <button type="submit" className={secondaryButtonClass}>
            Search
          </button>
        </Form>
      </div>
      {topErrors && topErrors.length > 0 && (
        <div className="mb-4">
          <FormErrors errors={topErrors} />
        </div>
      )}
      {selected && <ReviewPanel key={selected.id} row={selected} closeTo={link({ review: null })} />}
      {review && !selected && <p className="mb-4 rounded-md border border-slate-200 bg-white p-3 text-sm text-slate-600">That transfer is not in this list.</p>}
      <DataTable
        columns={PAYMENT_COLUMNS}
        className={`rounded-xl border border-slate-200 bg-white shadow-sm ${navigation.state === "loading" ? "opacity-60" : ""}`}
      >
        {rows.length === 0 ? (
          <EmptyTableRow colSpan={8} className="px-4 py-10 text-center text-slate-500">
            {filter === "pending" ? "No transfers are waiting for review." : "No transfers found."}
          </EmptyTableRow>
        ) : (
          rows.map((r) => (
            <tr key={r.id} data-reference={r.reference}>
              <td className="px-4 py-3 font-mono">{r.reference}</td>
              <td className="px-4 py-3">
                <div className="font-medium text-slate-900">{r.userName || "Unknown User"}</div>
                <div className="text-slate-500">{r.userEmail}</div>
              </td>
              <td className="px-4 py-3">{r.planName}</td>
              <td className="px-4 py-3">{formatUsd(r.amountCents)}</td>
              <td className="px-4 py-3">
                <DateOnly value={r.createdAt} />
              </td>
              <td className="px-4 py-3">
                <StatusBadge status={r.status} />
              </td>
              <td className="px-4 py-3 text-slate-600">
                {r.reviewedAt ? (
                  <>
                    <DateOnly value={r.reviewedAt} />
                    {r.reviewerEmail && <div className="text-xs text-slate-500">{r.reviewerEmail}</div>}
                    {r.reviewNote && <div className="text-xs text-slate-500">{r.reviewNote}</div>}
                  </>
                ) : (
                  "—"
                )}
              </td>
              <td className="px-4 py-3 text-right">
                {r.status === "pendingpayment" && (
                  <Link to={link({ review: r.id })} className="font-medium text-blue-600 hover:underline" aria-label={`Review ${r.reference}`}>
                    Review
                  </Link>
                )}
              </td>
            </tr>
          ))
        )}
      </DataTable>
      <Pagination
        page={page}
        pageCount={pageCount}
        total={total}
        pageSize={pageSize}
        noun="transfers"
        href={(p) => link({ page: String(p), review: null })}
        className={paginationBelowClass}
      />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error-boundary";
