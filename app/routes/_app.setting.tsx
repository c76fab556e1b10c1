import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ADMIN_ROLES, requireRole, requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { getSettings, saveSettings } from "~/models/settings.server";
import { PageHeader } from "~/components/ui/page-header";
import { buttonClass, inputClass } from "~/components/ui/form";
import { RouteErrorBoundary } from "~/components/route-error-boundary";

const ADMIN_ONLY = "Only admins can change settings.";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const admin = ADMIN_ROLES.includes(user.role);
  return { admin, settings: admin ? await getSettings(await getDb()) : null };
}

const schema = z.object({
  refuseStaleDnc: z.literal("on").optional(),
  resultRetentionDays: z.union([z.literal(""), z.coerce.number().int().min(1).max(3650)]).optional(),
});

/** Admins: the DNC refusal and how long result files are kept (certificates are kept regardless). */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, ADMIN_ROLES, ADMIN_ONLY);
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { ok: false, message: "Keep result files for a whole number of days between 1 and 3650, or leave it empty to keep them." };
  const days = parsed.data.resultRetentionDays;
  await saveSettings(
    await getDb(),
    { refuseStaleDnc: parsed.data.refuseStaleDnc === "on", resultRetentionDays: typeof days === "number" ? days : null },
    admin.id,
  );
  return { ok: true, message: "Settings saved." };
}

export default function SettingsPage() {
  const { admin, settings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!admin || !settings) return <PageHeader title="Settings" />;
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Settings" />
      <Form method="post" className="space-y-5 rounded-lg border border-slate-200 bg-white p-4">
        <label className="flex items-start gap-3 text-sm">
          <input type="checkbox" name="refuseStaleDnc" defaultChecked={settings.refuseStaleDnc} className="mt-1" />
          <span>
            <span className="font-medium">Refuse purges that include DNC when the DNC list is older than 31 days</span>
            <span className="block text-slate-600">
              Off: such purges run with a warning. On: they refuse to start (web and API) until a newer registry download is loaded.
            </span>
          </span>
        </label>
        <label className="block text-sm">
          <span className="font-medium">Keep result files for (days)</span>
          <input
            name="resultRetentionDays"
            type="number"
            min={1}
            max={3650}
            defaultValue={settings.resultRetentionDays ?? ""}
            placeholder="Keep them"
            className={`${inputClass} mt-1 max-w-40`}
          />
          <span className="mt-1 block text-slate-600">
            Housekeeping deletes good, bad and invalid files older than this. Certificates and list provenance are never deleted (TCPA claims can come four
            years after a call).
          </span>
        </label>
        {result ? (
          <p role="status" className={result.ok ? "text-sm text-green-700" : "text-sm text-red-700"}>
            {result.message}
          </p>
        ) : null}
        <button type="submit" className={buttonClass}>
          Save settings
        </button>
      </Form>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
