import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { formatBytes } from "~/utils/format";
import { listCategories, type CategoryItem } from "~/models/category.server";
import { getContainer, latestContainerLoads, listContainers, parseListId, type ContainerItem, type ListLoadItem } from "~/models/container.server";
import { getPlanState } from "~/models/usage.server";
import { getPlanGate } from "~/models/plan-gate.server";
import { NoPlanGate } from "~/components/pricing";
import { isMultipart, readUploadForm } from "~/intake/upload-form.server";
import { dispatchListForm } from "~/intake/list-form-action.server";
import { listFormError } from "~/intake/list-dialog.server";
import { releaseFinishedLoadUploads } from "~/intake/sweep.server";
import { CONTAINER_TEXT } from "~/components/lists/list-text";
import { buttonClass, secondaryButtonClass } from "~/components/ui/form";
import { listVersions, type ListVersion } from "~/models/list-version.server";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { usePolling } from "~/components/lists/list-ui";
import { CONTAINER_INTENTS, SUBSCRIBE_RETURN, type ContainerActionContext, type ContainerIntentResponse } from "./actions.server";
import { ImportOptOutsDialog, LatestOptOuts, RecordOptOutDialog, type OptOutRow } from "./opt-out-dialogs";
import { latestOptOuts } from "~/models/opt-out.server";
import { AddNumbersDialog, ContainerCard, CreateCategoryDialog, CreateContainerDialog, EditContainerDialog } from "./dialogs";

export const meta: MetaFunction = () => [{ title: "Storage Containers · Data Purging Tool" }];

const DIALOGS = ["create-category", "create-container", "edit-container", "add-numbers", "record-opt-out", "import-opt-outs"] as const;
type DialogName = (typeof DIALOGS)[number];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const url = new URL(request.url);
  await releaseFinishedLoadUploads(db).catch((e) => console.error(e));
  const param = url.searchParams.get("dialog");
  let dialog: DialogName | null = (DIALOGS as readonly string[]).includes(param ?? "") ? (param as DialogName) : null;

  let containers: ContainerItem[] = [];
  let categories: CategoryItem[] = [];
  let loads: Record<number, ListLoadItem> = {};
  let versions: Record<number, ListVersion[]> = {};
  const errors: string[] = [];
  try {
    const [c, l] = await Promise.all([listContainers(db, user.id), latestContainerLoads(db, user.id)]);
    containers = c;
    loads = Object.fromEntries(l);
    versions = Object.fromEntries(
      await listVersions(
        db,
        c.map((x) => x.id),
      ),
    );
  } catch (e) {
    console.error(e);
    errors.push(CONTAINER_TEXT.loadFailed);
  }
  let optOuts: OptOutRow[] = [];
  try {
    optOuts = (await latestOptOuts(db, user.id, 10)).map((o) => ({
      id: o.id,
      number: o.number,
      receivedAt: o.receivedAt.toISOString(),
      honouredAt: o.honouredAt?.toISOString() ?? null,
      deadline: o.deadline.toISOString(),
      late: o.late,
      channel: o.channel,
      words: o.words,
    }));
  } catch (e) {
    console.error(e);
    errors.push("Your opt-outs could not be loaded.");
  }
  try {
    categories = await listCategories(db, user.id);
  } catch (e) {
    console.error(e);
    errors.push(CONTAINER_TEXT.categoriesFailed);
  }

  let target: ContainerItem | null = null;
  if (dialog === "edit-container" || dialog === "add-numbers") {
    const id = parseListId(url.searchParams.get("id"));
    target = (id && (await getContainer(db, { id, userId: user.id }))) || null;
    if (!target) throw data("Container not found", { status: 404 });
  }

  // No plan: the subscription dialog opens instead of the create/add dialogs (and on arrival); after
  // subscribing, the confirm flow returns to the create-container dialog.
  const gate = await getPlanGate(db, user.id, SUBSCRIBE_RETURN);
  const showGate = gate !== null && (param === null || dialog === "create-container" || dialog === "add-numbers");
  if (showGate) dialog = null;

  const now = Date.now();
  return {
    containers,
    categories,
    loads,
    versions,
    /** Whole days since each container's newest version (its age), computed here so server and browser agree. */
    ages: Object.fromEntries(Object.entries(versions).map(([id, v]) => [id, v.length ? Math.floor((now - Date.parse(v[0].loadedAt)) / 86_400_000) : null])),
    errors,
    optOuts,
    dialog,
    target,
    gate: showGate ? gate : null,
    preselectCategory: url.searchParams.get("categoryId"),
    maxUploadText: formatBytes(env().MAX_UPLOAD_BYTES),
    maxUploadBytes: env().MAX_UPLOAD_BYTES,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  // A body that may carry a file is read only for users with a plan (checked before reading it).
  if (isMultipart(request) && !(await getPlanState(db, user.id)).hasAccess) return redirect(SUBSCRIBE_RETURN);
  const form = await readUploadForm(request, { userId: user.id });
  return dispatchListForm<ContainerActionContext, ContainerIntentResponse>({ request, user, form }, user.id, CONTAINER_INTENTS, listFormError);
}

export default function ContainersPage() {
  const { containers, categories, loads, versions, ages, errors, optOuts, dialog, target, gate, preselectCategory, maxUploadText, maxUploadBytes } =
    useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const location = useLocation();
  const arriving = navigation.state === "loading" && navigation.location.pathname === "/containers" && location.pathname !== "/containers";
  const anyActive = Object.values(loads).some((l) => l.status === "queued" || l.status === "running");
  usePolling(anyActive && !dialog, 2000);

  return (
    <div>
      <PageHeader
        title={CONTAINER_TEXT.title}
        subtitle="Keep your own suppression lists, grouped by category."
        actions={
          <>
            <Link to="/containers?dialog=record-opt-out" preventScrollReset className={secondaryButtonClass}>
              Record opt-out
            </Link>
            <Link to="/containers?dialog=import-opt-outs" preventScrollReset className={secondaryButtonClass}>
              Import opt-outs
            </Link>
            <Link to="/containers?dialog=create-category" preventScrollReset className={secondaryButtonClass}>
              Create Category
            </Link>
            <Link to="/containers?dialog=create-container" preventScrollReset className={buttonClass}>
              Create Container
            </Link>
          </>
        }
      />
      {errors.length > 0 && (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      )}
      {arriving ? (
        <p className="py-16 text-center text-slate-500" role="status">
          {CONTAINER_TEXT.loading}
        </p>
      ) : containers.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white py-16 text-center">
          <p className="text-base font-medium text-slate-700">{CONTAINER_TEXT.empty}</p>
          <p className="mt-1 text-sm text-slate-500">Create a container to store numbers you never want to contact.</p>
          <Link to="/containers?dialog=create-container" preventScrollReset className={`${buttonClass} mt-4`}>
            Create Container
          </Link>
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Containers">
          {containers.map((c) => (
            <ContainerCard key={c.id} container={c} load={loads[c.id]} versions={versions[c.id] ?? []} age={ages[c.id] ?? null} />
          ))}
        </ul>
      )}
      <LatestOptOuts rows={optOuts} />
      <p className="mt-8 text-sm text-slate-600">
        Customers you may call although they are on a do-not-call registry are kept in{" "}
        <Link to="/exemption-lists" className="text-blue-700 underline hover:text-blue-900">
          Exemption Lists
        </Link>
        .
      </p>

      {gate && <NoPlanGate gate={gate} closeTo="/containers?dialog=none" />}
      {dialog === "create-category" && <CreateCategoryDialog />}
      {dialog === "create-container" && (
        <CreateContainerDialog categories={categories} preselect={preselectCategory} maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} />
      )}
      {dialog === "edit-container" && target && <EditContainerDialog key={target.id} container={target} categories={categories} />}
      {dialog === "record-opt-out" && <RecordOptOutDialog />}
      {dialog === "import-opt-outs" && <ImportOptOutsDialog maxUploadText={maxUploadText} />}
      {dialog === "add-numbers" && target && (
        <AddNumbersDialog key={target.id} container={target} maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} />
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
