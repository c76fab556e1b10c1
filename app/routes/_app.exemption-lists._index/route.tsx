import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { formatBytes } from "~/utils/format";
import { getPlanState } from "~/models/usage.server";
import { getPlanGate } from "~/models/plan-gate.server";
import { NoPlanGate } from "~/components/pricing";
import { isMultipart, readUploadForm } from "~/intake/upload-form.server";
import { dispatchListForm, type ListIntentOutcome } from "~/intake/list-form-action.server";
import { listFormError, type ListReply } from "~/intake/list-dialog.server";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { getExemptionList, listExemptionLists, parseExemptionListId } from "~/models/exemption.server";
import { createExemptionsAction, loadExemptionsAction, type ExemptionActionContext } from "./actions.server";
import { CreateExemptionsDialog, ExemptionListsSection, LoadExemptionsDialog, type ExemptionListView, type ExemptionUsage } from "./exemption-lists";

export const meta: MetaFunction = () => [{ title: "Exemption Lists · Data Purging Tool" }];

/** Where the plan gate sends a user back after subscribing. */
const SUBSCRIBE_RETURN = "/exemption-lists?dialog=create-exemptions";

const DIALOGS = ["create-exemptions", "load-exemptions"] as const;
type DialogName = (typeof DIALOGS)[number];

const INTENTS: Record<DialogName, (ctx: ExemptionActionContext) => Promise<ListIntentOutcome<Response | ListReply>>> = {
  "create-exemptions": createExemptionsAction,
  "load-exemptions": loadExemptionsAction,
};

/**
 * The customer's exemption lists (decision 161), in their own place in the navigation (#44): one card per list with
 * its counts, and the dialogs that create a list and load rows into it; each list opens to its rows.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const url = new URL(request.url);
  const param = url.searchParams.get("dialog");
  let dialog: DialogName | null = (DIALOGS as readonly string[]).includes(param ?? "") ? (param as DialogName) : null;
  const errors: string[] = [];
  let lists: ExemptionListView[] = [];
  let usage: ExemptionUsage | null = null;
  try {
    lists = await listExemptionLists(db, user.id);
    const held = (await getPlanState(db, user.id)).exemption;
    usage = { held: held.used, limit: held.limit };
  } catch (e) {
    console.error(e);
    errors.push("Failed to load exemption lists from server.");
  }
  let target: ExemptionListView | null = null;
  if (dialog === "load-exemptions") {
    const id = parseExemptionListId(url.searchParams.get("id"));
    target = (id && (await getExemptionList(db, { id, userId: user.id }))) || null;
    if (!target) throw data("Exemption list not found", { status: 404 });
  }
  // No plan: the subscription dialog opens instead of the create and load dialogs (and on arrival).
  const gate = await getPlanGate(db, user.id, SUBSCRIBE_RETURN);
  const showGate = gate !== null && (param === null || dialog !== null);
  if (showGate) dialog = null;
  return {
    lists,
    usage,
    errors,
    dialog,
    target,
    gate: showGate ? gate : null,
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
  return dispatchListForm<ExemptionActionContext, Response | ListReply>({ request, user, form }, user.id, INTENTS, listFormError);
}

export default function ExemptionListsPage() {
  const { lists, usage, errors, dialog, target, gate, maxUploadText, maxUploadBytes } = useLoaderData<typeof loader>();
  return (
    <div>
      <PageHeader title="Exemption Lists" subtitle="Established business relationships and written consent: who you may call despite a do-not-call registry." />
      {errors.length > 0 && (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      )}
      <ExemptionListsSection lists={lists} usage={usage} />
      {gate && <NoPlanGate gate={gate} closeTo="/exemption-lists?dialog=none" />}
      {dialog === "create-exemptions" && <CreateExemptionsDialog maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} />}
      {dialog === "load-exemptions" && target && (
        <LoadExemptionsDialog key={target.id} list={target} maxUploadText={maxUploadText} maxUploadBytes={maxUploadBytes} />
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
