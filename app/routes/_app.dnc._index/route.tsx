import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DncClockNotice } from "~/components/proof/dnc-clock-notice";
import { listVersions, type ListVersion } from "~/models/list-version.server";
import { isoDay } from "scrub-service/domain";
import { dncClock } from "~/models/dnc-clock.server";
import { getSettings } from "~/models/settings.server";
import { ADMIN_ROLES, requireRole } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { formatBytes } from "~/utils/format";
import { latestDncLoads, listDncLists, parseDncType, type DncList } from "~/models/dnc.server";
import type { ListLoadItem } from "~/models/container.server";
import { readUploadForm } from "~/intake/upload-form.server";
import { dispatchListForm } from "~/intake/list-form-action.server";
import { listFormError } from "~/intake/list-dialog.server";
import { releaseFinishedLoadUploads } from "~/intake/sweep.server";
import { DNC_ACCESS_MESSAGE, DNC_TEXT } from "~/components/lists/list-text";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { usePolling } from "~/components/lists/list-ui";
import { DNC_INTENTS, type DncActionContext, type DncIntentResponse } from "./actions.server";
import { DIALOGS, DncCard, EditDialog, LoadDialog, type DialogName } from "./dialogs";

export const meta: MetaFunction = () => [{ title: "DNC Management · Data Purging Tool" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ADMIN_ROLES, DNC_ACCESS_MESSAGE);
  const db = await getDb();
  await releaseFinishedLoadUploads(db).catch((e) => console.error(e));
  const url = new URL(request.url);
  const param = url.searchParams.get("dialog");
  const dialog: DialogName | null = (DIALOGS as readonly string[]).includes(param ?? "") ? (param as DialogName) : null;
  const type = parseDncType(url.searchParams.get("type"));
  let lists: DncList[] = [];
  let loads: Record<number, ListLoadItem> = {};
  let versions: Record<number, ListVersion[]> = {};
  let loadError: string | null = null;
  try {
    const [l, ld] = await Promise.all([listDncLists(db), latestDncLoads(db)]);
    lists = l;
    loads = Object.fromEntries(ld);
    versions = Object.fromEntries(
      await listVersions(
        db,
        l.map((x) => x.id),
      ),
    );
  } catch (e) {
    console.error(e);
    loadError = DNC_TEXT.loadFailed;
  }
  if (dialog && dialog !== "edit" && type === null) throw data("Unknown DNC list", { status: 404 });
  const [clock, settings] = await Promise.all([dncClock(db), getSettings(db)]);
  return {
    lists,
    loads,
    versions,
    loadError,
    dialog,
    // The parser's one day of slack (an admin east of Greenwich may already be a day ahead of UTC).
    registryDateMax: isoDay(new Date(Date.now() + 86_400_000)),
    type: type ?? 0,
    maxUploadText: formatBytes(env().MAX_UPLOAD_BYTES),
    maxUploadBytes: env().MAX_UPLOAD_BYTES,
    clock,
    refusing: settings.refuseStaleDnc,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  // Checked before the body is read: only admins send DNC files.
  const admin = await requireRole(request, ADMIN_ROLES, DNC_ACCESS_MESSAGE);
  const form = await readUploadForm(request, { userId: admin.id });
  return dispatchListForm<DncActionContext, DncIntentResponse>({ request, admin, form }, admin.id, DNC_INTENTS, listFormError);
}

export default function DncPage() {
  const { lists, loads, versions, loadError, dialog, type, maxUploadText, maxUploadBytes, clock, refusing, registryDateMax } = useLoaderData<typeof loader>();
  const anyActive = Object.values(loads).some((l) => l.status === "queued" || l.status === "running");
  usePolling(anyActive && !dialog, 2000);
  const target = lists.find((l) => l.suppressionType === type);
  return (
    <div>
      <PageHeader title={DNC_TEXT.title} subtitle="The suppression lists every purge checks." />
      <DncClockNotice clock={clock} variant="banner" refusing={refusing} />
      <DncClockNotice clock={clock} variant="line" />
      {loadError && (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {loadError}
        </div>
      )}
      <ul className="grid gap-4 md:grid-cols-2" aria-label="DNC lists">
        {lists
          .filter((l) => !l.state)
          .map((l) => (
            <DncCard key={l.id} list={l} load={loads[l.id]} versions={versions[l.id] ?? []} />
          ))}
      </ul>
      <h2 className="mb-1 mt-8 text-lg font-semibold text-slate-900">State do-not-call lists</h2>
      <p className="mb-4 text-sm text-slate-600">
        Purges that include DNC check the federal list and every state list loaded here. An empty list is not checked.
      </p>
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="State DNC lists">
        {lists
          .filter((l) => l.state && !l.state.country)
          .map((l) => (
            <DncCard key={l.id} list={l} load={loads[l.id]} versions={versions[l.id] ?? []} />
          ))}
      </ul>
      <h2 className="mb-1 mt-8 text-lg font-semibold text-slate-900">Canada's National Do Not Call List</h2>
      <p className="mb-4 text-sm text-slate-600">Purges that include DNC check it for Canadian numbers once loaded; it takes Canadian area codes only.</p>
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="National DNC lists of other countries">
        {lists
          .filter((l) => l.state?.country)
          .map((l) => (
            <DncCard key={l.id} list={l} load={loads[l.id]} versions={versions[l.id] ?? []} />
          ))}
      </ul>
      <h2 className="mb-1 mt-8 text-lg font-semibold text-slate-900">Emergency no-call periods</h2>
      <p className="mb-4 text-sm text-slate-600">
        States forbid solicitations into an area under a declared emergency: while a period lasts its numbers are not callable.{" "}
        <Link to="/dnc/emergency" className="text-blue-700 hover:underline">
          Manage emergency periods
        </Link>
      </p>
      {dialog && dialog !== "edit" && target && (
        <LoadDialog
          key={`${dialog}-${type}`}
          mode={dialog}
          list={target}
          maxUploadText={maxUploadText}
          maxUploadBytes={maxUploadBytes}
          registryDateMax={registryDateMax}
        />
      )}
      {dialog === "edit" && lists.length > 0 && <EditDialog key={type} lists={lists} type={type} />}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
