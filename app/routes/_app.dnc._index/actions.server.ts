import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";
import { isoDay, parseOptionalRegistryDate } from "scrub-service/domain";
import type { SessionUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { replyOnError } from "~/utils/action-reply.server";
import { recordAudit } from "~/models/user.server";
import { getDncList, parseDncType, updateDncDescription } from "~/models/dnc.server";
import type { UploadForm } from "~/intake/upload-form.server";
import type { StoredUpload } from "~/intake/upload-store.server";
import type { ListIntentOutcome } from "~/intake/list-form-action.server";
import { listReply as reply, loadFailureReply, type ListReply } from "~/intake/list-dialog.server";
import { submitListLoad, type LoadSource } from "~/intake/submit-list-load.server";
import { splitManualNumbers } from "~/intake/typed-numbers";
import { getScrubService } from "~/utils/scrub.server";
import { DNC_TEXT, dncDoneToast, type LoadMode } from "~/components/lists/list-text";
import { dncEditSchema, dncLoadSchema } from "~/components/lists/list-forms";

/*
 * DNC Management's intents: an edit of a registry list's description, and a load (add, remove, replace, FTC
 * change list) handed to the intake (`submitListLoad`: load row, audit and hand-off in one transaction).
 */

type Mode = LoadMode;

const REGISTRY_DATE_DNC_ONLY = "A registry date applies to the DNC list, the state lists and Canada's National DNCL only (the day of the registry download).";

export type DncIntentResponse = Response | ListReply;
type DncIntent = (ctx: DncActionContext) => Promise<ListIntentOutcome<DncIntentResponse>>;
export interface DncActionContext {
  request: Request;
  admin: SessionUser;
  form: UploadForm;
  upload: StoredUpload | null;
}

export const DNC_INTENTS: Record<string, DncIntent> = {
  edit: async (ctx) => ({ response: await editAction(ctx) }),
  load: loadAction,
};

async function editAction({ request, admin, form }: DncActionContext) {
  const submission = parseWithZod(form.fields, { schema: dncEditSchema });
  if (submission.status !== "success") return reply("edit", submission.reply(), 400);
  const type = parseDncType(submission.value.type);
  if (type === null) return reply("edit", submission.reply({ formErrors: ["Unknown DNC list"] }), 400);
  const db = await getDb();
  return replyOnError<Response | ListReply>(
    async () => {
      const list = await updateDncDescription(db, type, submission.value.description);
      if (!list) throw new Error(`DNC list of type ${type} is missing`);
      await recordAudit(db, {
        actorId: admin.id,
        action: "dnc.update",
        targetType: "list",
        targetId: String(list.id),
        details: { suppressionType: type, description: list.description },
      });
      return redirect("/dnc", {
        headers: { "Set-Cookie": await flashToast(request, { kind: "success", title: DNC_TEXT.updated, description: list.name }) },
      });
    },
    { failed: () => reply("edit", submission.reply({ formErrors: [DNC_TEXT.updateFailed] }), 500) },
  );
}

async function loadAction({ request, admin, form, upload }: DncActionContext) {
  const submission = parseWithZod(form.fields, { schema: dncLoadSchema(() => upload !== null) });
  if (submission.status !== "success") return { response: reply("load", submission.reply(), 400) };
  const v = submission.value;
  const type = parseDncType(v.type);
  if (type === null) throw data("Unknown DNC list", { status: 404 });
  const mode: Mode = v.mode;
  const failTitle = mode === "add" ? DNC_TEXT.addFailed : DNC_TEXT.updateFailed;
  const db = await getDb();
  const list = await getDncList(db, type);
  if (!list) throw data("Unknown DNC list", { status: 404 });
  const stated = parseOptionalRegistryDate(v.registryDate);
  const registryDate = stated.ok ? stated.date : null;
  if (registryDate && !list.takesRegistryDate) {
    return { response: reply("load", submission.reply({ fieldErrors: { registryDate: [REGISTRY_DATE_DNC_ONLY] } }), 400) };
  }
  const source: LoadSource = v.method === "csv" && upload ? { kind: "file", upload } : { kind: "manual", numbers: splitManualNumbers(v.numbers).numbers };
  let submitted;
  try {
    // Admin list loads are not limited by any plan: nothing is reserved.
    submitted = await submitListLoad(db, await getScrubService(), {
      userId: admin.id,
      mode,
      source,
      reserve: false,
      list: list.id,
      registryDate,
      audit: (listId, loadId) => ({
        action: `dnc.${mode}`,
        targetType: "list",
        targetId: String(listId),
        details: {
          suppressionType: type,
          loadId,
          source: source.kind,
          fileName: upload?.originalName ?? null,
          registryDate: registryDate ? isoDay(registryDate) : null,
        },
      }),
    });
  } catch (e) {
    return loadFailureReply(e, { request, intent: "load", submission, page: "/dnc", failTitle });
  }
  if (!submitted.outcome) {
    const title = { add: "Loading Numbers", remove: "Removing Numbers", replace: "Replacing List", changes: "Applying Change List" }[mode];
    return {
      handedOver: true,
      response: redirect(`/dnc/loads/${submitted.loadId}`, {
        headers: {
          "Set-Cookie": await flashToast(request, { kind: "info", title, description: `Loading ${upload?.originalName ?? "file"} into ${list.name}…` }),
        },
      }),
    };
  }
  return {
    handedOver: true,
    response: redirect("/dnc", { headers: { "Set-Cookie": await flashToast(request, dncDoneToast(mode, submitted.outcome)) } }),
  };
}
