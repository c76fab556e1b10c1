import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import type { SessionUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { formErrorOf, replyOnError, submissionErrors } from "~/utils/action-reply.server";
import { recordAudit } from "~/models/user.server";
import { createCategory } from "~/models/category.server";
import { createContainer, getContainer, parseListId, updateContainer, type ContainerItem } from "~/models/container.server";
import type { UploadForm } from "~/intake/upload-form.server";
import type { StoredUpload } from "~/intake/upload-store.server";
import type { ListIntentOutcome } from "~/intake/list-form-action.server";
import { listReply as reply, loadFailureReply, type ListReply } from "~/intake/list-dialog.server";
import { submitListLoad, type ListLoadSubmission, type LoadSource } from "~/intake/submit-list-load.server";
import { splitManualNumbers } from "~/intake/typed-numbers";
import { getScrubService } from "~/utils/scrub.server";
import { CONTAINER_TEXT, describeLoad } from "~/components/lists/list-text";
import { importOptOutsAction, recordOptOutAction } from "./opt-out-actions.server";
import { addNumbersSchema, categorySchema, createContainerSchema, editContainerSchema } from "~/components/lists/list-forms";

/*
 * The containers page's intents: parse the dialog's form, run one use case (a category; a container with its
 * first load; a container's edit; numbers added), answer with a toast and a redirect or the dialog's errors.
 * Loads go through the intake (`submitListLoad`: job row, usage, audit and hand-off in one transaction).
 */

export const SUBSCRIBE_RETURN = "/containers?dialog=create-container";

export type ContainerIntentResponse = Response | ListReply;
type ContainerIntent = (ctx: ContainerActionContext) => Promise<ListIntentOutcome<ContainerIntentResponse>>;
export interface ContainerActionContext {
  request: Request;
  user: SessionUser;
  form: UploadForm;
  /** The form's list source (a staged or posted file, or typed numbers). */
  upload: StoredUpload | null;
}

export const CONTAINER_INTENTS: Record<string, ContainerIntent> = {
  "create-category": async (ctx) => ({ response: await createCategoryAction(ctx) }),
  "create-container": createContainerAction,
  "edit-container": async (ctx) => ({ response: await editContainerAction(ctx) }),
  "add-numbers": addNumbersAction,
  // opt-outs (issue #47, decision 195): one typed in, or a CSV file of them
  "record-opt-out": async (ctx) => ({ response: await recordOptOutAction(ctx) }),
  "import-opt-outs": importOptOutsAction,
};

async function createCategoryAction({ request, user, form }: ContainerActionContext) {
  const submission = parseWithZod(form.fields, { schema: categorySchema });
  if (submission.status !== "success") return reply("create-category", submission.reply(), 400);
  const db = await getDb();
  try {
    const category = await createCategory(db, { userId: user.id, ...submission.value });
    await recordAudit(db, {
      actorId: user.id,
      action: "category.create",
      targetType: "category",
      targetId: category.id,
      details: { name: category.name },
    });
    const back = form.fields.get("returnTo") === "create-container";
    const to = back ? `/containers?${new URLSearchParams({ dialog: "create-container", categoryId: category.id })}` : "/containers";
    return redirect(to, {
      headers: { "Set-Cookie": await flashToast(request, { kind: "success", title: CONTAINER_TEXT.categoryCreated, description: category.name }) },
    });
  } catch (e) {
    const err = formErrorOf(e);
    if (err) return reply("create-category", submission.reply(submissionErrors(err)), err.status);
    console.error(e);
    return reply("create-category", submission.reply({ formErrors: [CONTAINER_TEXT.categoryFailed] }), 500);
  }
}

function loadSource(upload: StoredUpload | null, method: "manual" | "csv", numbers: string | undefined): LoadSource {
  if (method === "csv") {
    if (!upload) throw new Error("validated csv without file");
    return { kind: "file", upload };
  }
  return { kind: "manual", numbers: splitManualNumbers(numbers).numbers };
}

async function createContainerAction({ request, user, form, upload }: ContainerActionContext) {
  const submission = parseWithZod(form.fields, { schema: createContainerSchema(() => upload !== null) });
  if (submission.status !== "success") return { response: reply("create-container", submission.reply(), 400) };
  const v = submission.value;
  const source = loadSource(upload, v.method, v.numbers);
  let created: ContainerItem | undefined;
  return submitLoad(request, "create-container", submission, CONTAINER_TEXT.containerCreated, () => created?.name ?? v.name, {
    userId: user.id,
    mode: "add",
    source,
    reserve: true,
    list: async (trx) => {
      created = await createContainer(trx, { userId: user.id, name: v.name, description: v.description, categoryId: v.categoryId });
      return created.id;
    },
    audit: (listId, loadId) => ({
      action: "container.create",
      targetType: "container",
      targetId: String(listId),
      details: { name: created?.name, category: created?.categoryName, loadId, source: source.kind },
    }),
  });
}

async function editContainerAction({ request, user, form }: ContainerActionContext) {
  const submission = parseWithZod(form.fields, { schema: editContainerSchema });
  if (submission.status !== "success") return reply("edit-container", submission.reply(), 400);
  const id = parseListId(submission.value.id);
  const db = await getDb();
  if (!id || !(await getContainer(db, { id, userId: user.id }))) throw data("Container not found", { status: 404 });
  return replyOnError<Response | ListReply>(
    async () => {
      const { name, description, categoryId } = submission.value;
      const updated = await updateContainer(db, { id, userId: user.id, name, description, categoryId });
      if (!updated) throw data("Container not found", { status: 404 });
      await recordAudit(db, {
        actorId: user.id,
        action: "container.update",
        targetType: "container",
        targetId: String(id),
        details: { name: updated.name, category: updated.categoryName },
      });
      return redirect("/containers", {
        headers: { "Set-Cookie": await flashToast(request, { kind: "success", title: CONTAINER_TEXT.containerUpdated, description: updated.name }) },
      });
    },
    {
      known: (e) => {
        const err = formErrorOf(e);
        return err ? reply("edit-container", submission.reply(submissionErrors(err)), err.status) : undefined;
      },
      failed: () => reply("edit-container", submission.reply({ formErrors: [CONTAINER_TEXT.updateFailed] }), 500),
    },
  );
}

async function addNumbersAction({ request, user, form, upload }: ContainerActionContext) {
  const submission = parseWithZod(form.fields, { schema: addNumbersSchema(() => upload !== null) });
  if (submission.status !== "success") return { response: reply("add-numbers", submission.reply(), 400) };
  const v = submission.value;
  const id = parseListId(v.id);
  const db = await getDb();
  const container = id ? await getContainer(db, { id, userId: user.id }) : undefined;
  if (!container) throw data("Container not found", { status: 404 });
  const source = loadSource(upload, v.method, v.numbers);
  return submitLoad(request, "add-numbers", submission, CONTAINER_TEXT.numbersAdded, () => container.name, {
    userId: user.id,
    mode: "add",
    source,
    reserve: true,
    list: container.id,
    audit: (listId, loadId) => ({
      action: "container.load",
      targetType: "container",
      targetId: String(listId),
      details: { name: container.name, loadId, source: source.kind },
    }),
  });
}

/**
 * Hands the form to the intake and answers: typed numbers are loaded now (toast with counts); a file goes to
 * the queue (progress page); refusals go back to the dialog.
 */
async function submitLoad(
  request: Request,
  intent: "create-container" | "add-numbers",
  submission: { reply(opts?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }): SubmissionResult<string[]> },
  title: string,
  name: () => string,
  input: ListLoadSubmission,
) {
  const failed = intent === "create-container" ? CONTAINER_TEXT.containerFailed : CONTAINER_TEXT.addFailed;
  let submitted;
  try {
    submitted = await submitListLoad(await getDb(), await getScrubService(), input);
  } catch (e) {
    return loadFailureReply(e, {
      request,
      intent,
      submission,
      page: "/containers",
      failTitle: failed,
      handOffTitle: CONTAINER_TEXT.addFailed,
      known: (e) => {
        const err = formErrorOf(e);
        // no plan: to the plans, and back here once one is chosen; over a limit: said in the dialog
        if (err?.code === "no_plan") return redirect(SUBSCRIBE_RETURN);
        if (err?.code === "usage_limit" || err?.code === "active_jobs_limit") return reply(intent, submission.reply({ formErrors: [err.message] }), 422);
        if (err?.code === "invalid_input" && err.field === "categoryId") return reply(intent, submission.reply(submissionErrors(err)), err.status);
        return undefined;
      },
    });
  }
  if (!submitted.outcome) {
    return {
      handedOver: true,
      response: redirect(`/containers/loads/${submitted.loadId}`, {
        headers: {
          // A new container is created now; numbers are only "added" when the load completes (its own toast).
          "Set-Cookie": await flashToast(
            request,
            intent === "create-container"
              ? { kind: "success", title, description: `Loading numbers into ${name()}…` }
              : { kind: "info", title: "Loading Numbers", description: `Loading numbers into ${name()}…` },
          ),
        },
      }),
    };
  }
  return {
    handedOver: true,
    response: redirect("/containers", {
      headers: { "Set-Cookie": await flashToast(request, { kind: "success", title, description: describeLoad(submitted.outcome, "add") }) },
    }),
  };
}
