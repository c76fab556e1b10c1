import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";
import type { SessionUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import type { UploadForm } from "~/intake/upload-form.server";
import type { StoredUpload } from "~/intake/upload-store.server";
import type { ListIntentOutcome } from "~/intake/list-form-action.server";
import { listReply as reply, type ListReply } from "~/intake/list-dialog.server";
import { createExemptionListWithRows, readExemptionSource, submitExemptionLoad, type ExemptionSource } from "~/intake/exemption-load.server";
import { ExemptionInputError, getExemptionList, parseExemptionListId } from "~/models/exemption.server";
import { createExemptionsSchema, loadExemptionsSchema } from "./exemption-forms";
import { formatNumber } from "~/utils/format";

/*
 * The exemption lists page's intents (decision 161): create a list with its first rows, load rows into
 * one (add or replace). Every row is checked first; any bad row refuses the whole load and each bad line is named
 * in the dialog. Nothing is queued: the rows are written in one transaction before the answer.
 */

export interface ExemptionActionContext {
  request: Request;
  user: SessionUser;
  form: UploadForm;
  upload: StoredUpload | null;
}

type Reply = ListReply;

function sourceOf(method: "manual" | "csv", rows: string | undefined, upload: StoredUpload | null): ExemptionSource {
  if (method === "csv" && upload) return { kind: "file", upload };
  return { kind: "text", text: rows ?? "" };
}

function loaded(size: number, version: number): string {
  return `${formatNumber(size)} ${size === 1 ? "number" : "numbers"} (version ${version}).`;
}

export async function createExemptionsAction({ request, user, form, upload }: ExemptionActionContext): Promise<ListIntentOutcome<Response | Reply>> {
  const submission = parseWithZod(form.fields, { schema: createExemptionsSchema(() => upload !== null) });
  if (submission.status !== "success") return { response: reply("create-exemptions", submission.reply(), 400) };
  const v = submission.value;
  const db = await getDb();
  try {
    // the rows first: a refused file creates no list
    const rows = await readExemptionSource(sourceOf(v.method, v.rows, upload));
    const r = await createExemptionListWithRows(db, { userId: user.id, name: v.name, description: v.description, rows, origin: "web" });
    const list = r.list;
    return {
      response: redirect("/exemption-lists", {
        headers: {
          "Set-Cookie": await flashToast(request, {
            kind: "success",
            title: "Exemption List Created",
            description: `${list.name}: ${loaded(r.list.size, r.list.version)}`,
          }),
        },
      }),
    };
  } catch (e) {
    if (e instanceof ExemptionInputError) return { response: reply("create-exemptions", submission.reply({ formErrors: e.errors }), 400) };
    console.error(e);
    return { response: reply("create-exemptions", submission.reply({ formErrors: ["Failed to create the exemption list. Please try again."] }), 500) };
  }
}

export async function loadExemptionsAction({ request, user, form, upload }: ExemptionActionContext): Promise<ListIntentOutcome<Response | Reply>> {
  const submission = parseWithZod(form.fields, { schema: loadExemptionsSchema(() => upload !== null) });
  if (submission.status !== "success") return { response: reply("load-exemptions", submission.reply(), 400) };
  const v = submission.value;
  const db = await getDb();
  const id = parseExemptionListId(v.id);
  const list = id ? await getExemptionList(db, { id, userId: user.id }) : undefined;
  if (!list) throw data("Exemption list not found", { status: 404 });
  try {
    const rows = await readExemptionSource(sourceOf(v.method, v.rows, upload));
    const r = await submitExemptionLoad(db, { userId: user.id, listId: list.id, listName: list.name, mode: v.mode, rows, origin: "web" });
    return {
      response: redirect("/exemption-lists", {
        headers: {
          "Set-Cookie": await flashToast(request, {
            kind: "success",
            title: "Exemptions Loaded",
            description: `${list.name}: ${loaded(r.list.size, r.list.version)}`,
          }),
        },
      }),
    };
  } catch (e) {
    if (e instanceof ExemptionInputError) return { response: reply("load-exemptions", submission.reply({ formErrors: e.errors }), 400) };
    console.error(e);
    return { response: reply("load-exemptions", submission.reply({ formErrors: ["Failed to load the exemption rows. Please try again."] }), 500) };
  }
}
