import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { US_STATES, parseEmergencyPeriod, type EmergencyPeriodField } from "scrub-service/domain";
import { ADMIN_ROLES, requireRole } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { forgetEmergencyPeriods, insertEmergencyPeriodFor, listEmergencyPeriods, removeEmergencyPeriod } from "~/models/emergency-period.server";
import { PageHeader } from "~/components/ui/page-header";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { DataTable, EmptyTableRow, type DataTableColumn } from "~/components/ui/data-table";
import { DNC_ACCESS_MESSAGE } from "~/components/lists/list-text";
import { RouteErrorBoundary } from "~/components/route-error-boundary";

/*
 * Emergency no-call periods (decision 181): the admin's table, add form and remove buttons. Plain form posts (they
 * work with JavaScript off); the server checks the role on the loader and the action, and the engine's
 * parseEmergencyPeriod checks what was typed (the CLI's `npm run lists -- emergency add` prints the same words).
 */

export const meta: MetaFunction = () => [{ title: "Emergency no-call periods · Data Purging Tool" }];

const PATH = "/dnc/emergency";

const schema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    states: z.string().max(200).default(""),
    areaCodes: z.string().max(500).default(""),
    from: z.string().max(20).default(""),
    to: z.string().max(20).default(""),
    authority: z.string().max(500).default(""),
    source: z.string().max(4000).default(""),
  }),
  z.object({ intent: z.literal("remove"), id: z.coerce.number().int().positive() }),
]);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ADMIN_ROLES, DNC_ACCESS_MESSAGE);
  const db = await getDb();
  const periods = await listEmergencyPeriods(db);
  const today = new Date().toISOString().slice(0, 10);
  return {
    today,
    periods: periods.map((p) => ({
      id: p.id,
      states: p.states,
      areaCodes: p.areaCodes,
      firstDay: p.firstDay,
      lastDay: p.lastDay,
      authority: p.authority,
      sourceUrl: p.sourceUrl,
      createdAt: p.createdAt.toISOString(),
    })),
  };
}

type ActionResult = { errors: Partial<Record<EmergencyPeriodField | "form", string[]>>; values?: Record<string, string> };

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, ADMIN_ROLES, DNC_ACCESS_MESSAGE);
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<ActionResult>({ errors: { form: ["The form was not understood. Please try again."] } }, { status: 400 });
  const db = await getDb();
  const v = parsed.data;
  if (v.intent === "remove") {
    const removed = await removeEmergencyPeriod(db, v.id, admin.id);
    forgetEmergencyPeriods();
    if (!removed) return data<ActionResult>({ errors: { form: [`Emergency period ${v.id} is not in force (already removed?).`] } }, { status: 404 });
    return redirect(PATH, {
      headers: {
        "Set-Cookie": await flashToast(request, { kind: "success", title: "Period Removed", description: `Emergency period ${v.id} no longer applies.` }),
      },
    });
  }
  const { intent: _intent, ...values } = v;
  const checked = parseEmergencyPeriod({ states: v.states, areaCodes: v.areaCodes, from: v.from, to: v.to, authority: v.authority, source: v.source });
  if (!checked.ok) {
    const errors: ActionResult["errors"] = {};
    for (const e of checked.errors) (errors[e.field] ??= []).push(e.message);
    return data<ActionResult>({ errors, values }, { status: 400 });
  }
  const p = await insertEmergencyPeriodFor(db, checked.value, admin.id);
  forgetEmergencyPeriods();
  return redirect(PATH, {
    headers: {
      "Set-Cookie": await flashToast(request, {
        kind: "success",
        title: "Period Added",
        description: `Emergency period ${p.id}: ${p.states.join(", ")}${p.areaCodes ? ` (area codes ${p.areaCodes.join(", ")})` : ""}, ${p.firstDay} to ${p.lastDay}.`,
      }),
    },
  });
}

const COLUMNS: DataTableColumn[] = [
  { label: "No." },
  { label: "Where" },
  { label: "Days" },
  { label: "Declared by" },
  { label: "Source" },
  { label: <span className="sr-only">Actions</span> },
];

const STATE_NAMES = new Map(US_STATES.map((s) => [s.code, s.name]));

function Field({
  name,
  label,
  hint,
  errors,
  defaultValue,
  type = "text",
  placeholder,
  required,
}: {
  name: string;
  label: string;
  hint?: string;
  errors?: string[];
  defaultValue?: string;
  type?: "text" | "date" | "url";
  placeholder?: string;
  required?: boolean;
}) {
  const id = `emergency-${name}`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue}
        placeholder={placeholder}
        required={required}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={inputClass}
      />
      {hint && !errors?.length && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export default function EmergencyPeriodsPage() {
  const { periods, today } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  const values = result?.values ?? {};
  return (
    <div>
      <PageHeader
        title="Emergency no-call periods"
        subtitle="While a period lasts (the number's local days, first and last included), its numbers are not callable in the calling columns, the lookup and the certificate."
      />
      <p className="mb-4 text-sm">
        <Link to="/dnc" className="text-blue-700 hover:underline">
          ← DNC Management
        </Link>
        {" · "}
        <Link to="/rules#emergency-periods" className="text-blue-700 hover:underline">
          Public list on /rules
        </Link>
      </p>
      <FormErrors errors={errors.form} />
      <DataTable columns={COLUMNS} className="mb-8 rounded-lg border border-slate-200 bg-white" aria-label="Emergency no-call periods">
        {periods.length === 0 ? (
          <EmptyTableRow colSpan={COLUMNS.length} className="px-4 py-6 text-slate-500">
            No emergency periods. Add one below when a state declares an emergency that stops telephone solicitations.
          </EmptyTableRow>
        ) : (
          periods.map((p) => (
            <tr key={p.id}>
              <td className="px-4 py-3 font-mono">{p.id}</td>
              <td className="px-4 py-3">
                {p.states.map((s) => STATE_NAMES.get(s) ?? s).join(", ")}
                {p.areaCodes ? <span className="block text-xs text-slate-500">area codes {p.areaCodes.join(", ")}</span> : null}
              </td>
              <td className="px-4 py-3 whitespace-nowrap">
                {p.firstDay} to {p.lastDay}
                <span className="block text-xs text-slate-500">{p.lastDay < today ? "over" : p.firstDay > today ? "upcoming" : "in force"}</span>
              </td>
              <td className="px-4 py-3">{p.authority || <span className="text-slate-400">not stated</span>}</td>
              <td className="max-w-[16rem] px-4 py-3 break-all">
                <a href={p.sourceUrl} className="text-blue-700 hover:underline" rel="noopener noreferrer nofollow">
                  {p.sourceUrl}
                </a>
              </td>
              <td className="px-4 py-3 text-right">
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="id" value={p.id} />
                  <button type="submit" className={secondaryButtonClass} disabled={busy} aria-label={`Remove emergency period ${p.id}`}>
                    Remove
                  </button>
                </Form>
              </td>
            </tr>
          ))
        )}
      </DataTable>
      <section aria-labelledby="add-period" className="max-w-2xl rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="add-period" className="mb-1 text-lg font-semibold text-slate-900">
          Add a period
        </h2>
        <p className="mb-4 text-sm text-slate-600">
          Louisiana (La. R.S. 45:844.31) and New York (GBL § 399-z(5-a)) forbid solicitations into an area under a declared emergency. Enter the states, the
          area codes when the declaration names only some, the days, who declared it and where it is published.
        </p>
        <Form method="post" className="grid gap-4 sm:grid-cols-2" noValidate>
          <input type="hidden" name="intent" value="add" />
          <Field name="states" label="States" hint="Two-letter codes, e.g. LA or LA, NY" errors={errors.states} defaultValue={values.states} required />
          <Field
            name="areaCodes"
            label="Area codes (optional)"
            hint="Only these area codes of the states, e.g. 504, 985"
            errors={errors.areaCodes}
            defaultValue={values.areaCodes}
          />
          <Field name="from" label="First day" type="date" errors={errors.from} defaultValue={values.from} required />
          <Field name="to" label="Last day" type="date" errors={errors.to} defaultValue={values.to} required />
          <Field
            name="authority"
            label="Declared by"
            hint="e.g. Governor of Louisiana, Louisiana Public Service Commission"
            errors={errors.authority}
            defaultValue={values.authority}
          />
          <Field name="source" label="Source URL" type="url" placeholder="https://" errors={errors.source} defaultValue={values.source} required />
          <div className="sm:col-span-2">
            <button type="submit" className={buttonClass} disabled={busy}>
              Add period
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
