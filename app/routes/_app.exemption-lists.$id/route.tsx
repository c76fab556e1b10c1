import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { EXEMPTION_BASES, exemptionWindowsOf } from "scrub-service/domain";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { formatNumber } from "~/utils/format";
import {
  browseExemptionRecords,
  deleteExemptionList,
  exemptionCounts,
  ExemptionInputError,
  getExemptionList,
  loadExemptions,
  parseExemptionListId,
  readExemptionRows,
} from "~/models/exemption.server";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { DialogShell } from "~/components/ui/dialog-shell";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { federalUntil } from "./until.server";
import { revocationsOf } from "~/models/opt-out.server";
import { DateTime } from "~/components/ui/date-time";

export const meta: MetaFunction = () => [{ title: "Exemption List · Data Purging Tool" }];

const PAGE_SIZE = 50;

const query = z.object({
  q: z
    .string()
    .trim()
    .regex(/^\d{0,10}$/)
    .catch(""),
  after: z.coerce.number().int().min(0).max(9_999_999_999).optional().catch(undefined),
  edit: z.coerce.number().int().min(1_000_000_000).max(9_999_999_999).optional().catch(undefined),
  dialog: z.enum(["delete"]).optional().catch(undefined),
});

/**
 * One exemption list's rows (#44): counts by basis and how many have ended under the federal list's windows, the
 * rows a page at a time (searched by number), each row's basis or date changed or the row removed, and the list
 * deleted. Plain forms: the same with JavaScript off. Every query is scoped to the signed-in user's lists.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = parseExemptionListId(params.id);
  if (!id) throw data("Exemption list not found", { status: 404 });
  const db = await getDb();
  const q = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const federal = exemptionWindowsOf("dnc")!;
  const now = Date.now();
  const page = await browseExemptionRecords(db, { id, userId: user.id, prefix: q.q, after: q.after, limit: PAGE_SIZE });
  if (!page) throw data("Exemption list not found", { status: 404 });
  // a number's opt-out revokes its consent and relationship records from the instant received (decision 195)
  const revoked = await revocationsOf(
    db,
    user.id,
    page.records.map((r) => Number(r.number)),
  );
  const counts = (await exemptionCounts(db, { id, userId: user.id, purchaseMonths: federal.purchaseMonths, inquiryMonths: federal.inquiryMonths, atMs: now }))!;
  return {
    list: page.list,
    records: page.records.map((r) => {
      const o = revoked.get(Number(r.number));
      return {
        ...r,
        until: federalUntil(r.basis, r.date, federal, now),
        revoked: o ? { receivedAt: o.receivedAt.toISOString(), honouredAt: o.honouredAt?.toISOString() ?? null } : null,
      };
    }),
    more: page.more,
    counts,
    federal,
    q: q.q,
    after: q.after ?? null,
    edit: q.edit ?? null,
    dialog: q.dialog ?? null,
    today: new Date(now).toISOString().slice(0, 10),
  };
}

const rowForm = z.object({
  intent: z.enum(["set", "remove", "delete"]),
  number: z
    .string()
    .regex(/^\d{10}$/)
    .optional(),
  basis: z.enum(EXEMPTION_BASES).optional(),
  date: z.string().optional(),
  back: z.string().optional(),
});

/** Where a row form returns: this list's page, keeping the search (never another path). */
function backTo(id: number, back: string | undefined): string {
  const params = new URLSearchParams(back && back.startsWith("?") ? back.slice(1) : "");
  const keep = new URLSearchParams();
  for (const k of ["q", "after"]) if (params.get(k)) keep.set(k, params.get(k)!);
  const s = keep.toString();
  return `/exemption-lists/${id}${s ? `?${s}` : ""}`;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = parseExemptionListId(params.id);
  if (!id) throw data("Exemption list not found", { status: 404 });
  const parsed = rowForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ errors: ["The form was not complete; please try again."] }, { status: 400 });
  const v = parsed.data;
  const db = await getDb();
  if (!(await getExemptionList(db, { id, userId: user.id }))) throw data("Exemption list not found", { status: 404 });
  try {
    if (v.intent === "delete") {
      if (!(await deleteExemptionList(db, { id, userId: user.id }))) throw data("Exemption list not found", { status: 404 });
      return redirect("/exemption-lists", {
        headers: {
          "Set-Cookie": await flashToast(request, {
            kind: "success",
            title: "Exemption List Deleted",
            description: "Its rows are gone; certificates of earlier purges keep their record of it.",
          }),
        },
      });
    }
    if (!v.number) return data({ errors: ["Choose a row."] }, { status: 400 });
    const number = Number(v.number);
    if (v.intent === "remove") {
      const none = { numbers: new Float64Array(0), basis: new Uint8Array(0), day: new Int32Array(0) };
      const r = await loadExemptions(db, { listId: id, userId: user.id, mode: "edit", rows: none, remove: [number] });
      return redirect(backTo(id, v.back), {
        headers: {
          "Set-Cookie": await flashToast(request, {
            kind: "success",
            title: "Row Removed",
            description: `${v.number} left the list (version ${r.list.version}).`,
          }),
        },
      });
    }
    // the row checked as any loaded row is (basis, a real date, not in the future, not before 1900)
    const rows = await readExemptionRows({ text: `${v.number},${v.basis ?? ""},${v.date ?? ""}` });
    const r = await loadExemptions(db, { listId: id, userId: user.id, mode: "edit", rows });
    return redirect(backTo(id, v.back), {
      headers: {
        "Set-Cookie": await flashToast(request, {
          kind: "success",
          title: "Row Saved",
          description: `${v.number}: ${v.basis} ${v.date} (version ${r.list.version}).`,
        }),
      },
    });
  } catch (e) {
    if (e instanceof ExemptionInputError) return data({ errors: e.errors.map((m) => m.replace(/^Line 1: /, "")) }, { status: 422 });
    throw e;
  }
}

export default function ExemptionListPage() {
  const { list, records, more, counts, federal, q, after, edit, dialog, today } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.errors;
  const busy = useNavigation().state === "submitting";
  const here = `/exemption-lists/${list.id}`;
  const back = `?${new URLSearchParams({ ...(q ? { q } : {}), ...(after !== null ? { after: String(after) } : {}) }).toString()}`;
  return (
    <div>
      <PageHeader
        title={list.name}
        subtitle={list.description || "Exemption list"}
        actions={
          <>
            <Link to="/exemption-lists" className={secondaryButtonClass}>
              All exemption lists
            </Link>
            <Link to={`/exemption-lists?dialog=load-exemptions&id=${list.id}`} className={buttonClass}>
              Load Rows
            </Link>
          </>
        }
      />
      {errors && (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      )}
      <section aria-label="Counts by basis" className="grid gap-3 sm:grid-cols-4">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-xs text-slate-500">Numbers</p>
          <p className="text-2xl font-semibold tabular-nums" data-testid="exemption-total">
            {formatNumber(list.size)}
          </p>
          <p className="text-xs text-slate-500">Version {list.version}</p>
        </div>
        {counts.map((c) => (
          <div key={c.basis} className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`count-${c.basis}`}>
            <p className="text-xs capitalize text-slate-500">{c.basis}</p>
            <p className="text-2xl font-semibold tabular-nums">{formatNumber(c.records)}</p>
            <p className={`text-xs ${c.ended ? "text-amber-800" : "text-slate-500"}`}>
              {c.basis === "consent"
                ? "No end: until the customer says stop"
                : `${formatNumber(c.ended)} ended under the federal list's ${c.basis === "purchase" ? federal.purchaseMonths : federal.inquiryMonths} months`}
            </p>
          </div>
        ))}
      </section>
      <p className="mt-2 text-xs text-slate-500">
        &quot;Applies until&quot; is the federal list&apos;s window; a state&apos;s list may allow fewer months (
        <Link to="/rules" className="underline">
          the rules
        </Link>
        ). Litigation and your containers are never exempted.
      </p>

      <Form method="get" className="mt-6 flex flex-wrap items-end gap-2" role="search">
        <label className="block">
          <span className="mb-1 block text-sm font-medium text-slate-700">Find a number</span>
          <input
            name="q"
            defaultValue={q}
            inputMode="numeric"
            pattern="\d{0,10}"
            placeholder="2125552345 or its first digits"
            className={`${inputClass} w-64 max-w-full`}
          />
        </label>
        <button type="submit" className={secondaryButtonClass}>
          Search
        </button>
        {q && (
          <Link to={here} className="text-sm text-blue-700 underline">
            Show all
          </Link>
        )}
      </Form>

      {records.length === 0 ? (
        <p className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white py-8 text-center text-sm text-slate-500">
          {q ? `No number on this list starts with ${q}.` : "This list has no rows yet: load rows to start."}
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full text-left text-sm" aria-label="Exemption rows">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Number
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Basis
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Date
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Applies until (federal)
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {records.map((r) =>
                edit === r.number ? (
                  <tr key={r.number} data-testid="exemption-row-edit">
                    <td colSpan={5} className="px-3 py-3">
                      <Form method="post" className="flex flex-wrap items-end gap-2" aria-label={`Edit ${r.number}`}>
                        <input type="hidden" name="intent" value="set" />
                        <input type="hidden" name="number" value={r.number} />
                        <input type="hidden" name="back" value={back} />
                        <span className="font-mono text-sm">{r.number}</span>
                        <label className="block">
                          <span className="mb-1 block text-xs text-slate-500">Basis</span>
                          <select name="basis" defaultValue={r.basis} className={inputClass}>
                            {EXEMPTION_BASES.map((b) => (
                              <option key={b} value={b}>
                                {b}
                              </option>
                            ))}
                          </select>
                        </label>
                        <label className="block">
                          <span className="mb-1 block text-xs text-slate-500">Date</span>
                          <input type="date" name="date" defaultValue={r.date} max={today} required className={inputClass} />
                        </label>
                        <button type="submit" className={buttonClass} disabled={busy}>
                          Save
                        </button>
                        <Link to={`${here}${back === "?" ? "" : back}`} className="text-sm text-blue-700 underline">
                          Cancel
                        </Link>
                      </Form>
                    </td>
                  </tr>
                ) : (
                  <tr key={r.number} data-testid="exemption-row">
                    <td className="px-3 py-2 font-mono">{r.number}</td>
                    <td className="px-3 py-2 capitalize">{r.basis}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{r.date}</td>
                    <td className={`px-3 py-2 whitespace-nowrap ${r.until.ended ? "text-amber-800" : ""}`}>
                      {r.revoked ? (
                        <span className="text-red-700" data-testid="exemption-revoked">
                          Revoked by an opt-out received <DateTime value={r.revoked.receivedAt} />
                          {r.revoked.honouredAt ? (
                            <>
                              {" "}
                              (honoured <DateTime value={r.revoked.honouredAt} />)
                            </>
                          ) : null}
                        </span>
                      ) : (
                        r.until.text
                      )}
                    </td>
                    <td className="px-3 py-2 text-right whitespace-nowrap">
                      <Link
                        to={`${here}?${new URLSearchParams({ ...(q ? { q } : {}), ...(after !== null ? { after: String(after) } : {}), edit: String(r.number) })}`}
                        className="mr-3 text-blue-700 underline"
                        aria-label={`Edit ${r.number}`}
                      >
                        Edit
                      </Link>
                      <Form method="post" className="inline">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="number" value={r.number} />
                        <input type="hidden" name="back" value={back} />
                        <button type="submit" className="text-red-700 underline" aria-label={`Remove ${r.number}`} disabled={busy}>
                          Remove
                        </button>
                      </Form>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Pages" className="mt-3 flex gap-4 text-sm">
        {after !== null && (
          <Link to={`${here}${q ? `?q=${q}` : ""}`} className="text-blue-700 underline">
            First page
          </Link>
        )}
        {more && (
          <Link
            to={`${here}?${new URLSearchParams({ ...(q ? { q } : {}), after: String(records[records.length - 1].number) })}`}
            className="text-blue-700 underline"
          >
            Next {PAGE_SIZE} rows
          </Link>
        )}
      </nav>

      <section className="mt-10 rounded-lg border border-red-200 bg-white p-4">
        <h2 className="text-sm font-semibold text-red-800">Delete this list</h2>
        <p className="mt-1 text-sm text-slate-600">Its rows are deleted. Certificates of purges that used it keep their record of it.</p>
        <Link to={`${here}?dialog=delete`} className="mt-2 inline-block text-sm font-medium text-red-700 underline">
          Delete List
        </Link>
      </section>

      {dialog === "delete" && (
        <DialogShell
          title="Delete Exemption List"
          description={`Delete ${list.name} and its ${formatNumber(list.size)} rows?`}
          closeHref={here}
          testId="delete-exemptions-dialog"
          focusFirstField
        >
          <p className="text-sm text-slate-600">
            A purge that uses it and has not finished stops the delete. Finished purges&apos; certificates keep their record.
          </p>
          <Form method="post" className="mt-4 flex justify-end gap-2">
            <input type="hidden" name="intent" value="delete" />
            <Link to={here} className={secondaryButtonClass}>
              Cancel
            </Link>
            <button
              type="submit"
              className="inline-flex items-center justify-center rounded-md bg-red-600 px-4 py-2 text-sm font-medium text-white hover:bg-red-700"
              disabled={busy}
            >
              Delete List
            </button>
          </Form>
        </DialogShell>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
