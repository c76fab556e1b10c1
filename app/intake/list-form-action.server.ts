import { MANUAL_TOO_LARGE_MESSAGE } from "./typed-numbers";
import type { UploadForm } from "./upload-form.server";
import { claimStagedUpload, deleteUpload, type StoredUpload } from "./upload-store.server";

/** What a list dialog's intent answers, and whether a load took its upload (then it is not deleted here). */
export type ListIntentOutcome<R> = { response: R; handedOver?: boolean };

/**
 * The one frame of a list dialog's action (containers, DNC Management): a file that was not kept (too large,
 * no room) or typed text past its cap is refused, a file staged ahead of the form is claimed, the intent is
 * dispatched, and the upload is deleted unless a load took it.
 */
export async function dispatchListForm<C extends { form: UploadForm; upload: StoredUpload | null }, R>(
  base: Omit<C, "upload">,
  userId: string,
  intents: Record<string, (ctx: C) => Promise<ListIntentOutcome<R>>>,
  formError: (intent: string, message: string, status: number) => R,
): Promise<R> {
  const { form } = base;
  let upload = form.upload;
  let handedOver = false;
  try {
    const intent = String(form.fields.get("intent") ?? "");
    if (form.refusal) return formError(intent, form.refusal.message, form.refusal.status);
    if (form.textTooLarge) return formError(intent, MANUAL_TOO_LARGE_MESSAGE, 413);
    if (!upload && form.fields.get("method") === "csv") upload = (await claimStagedUpload(userId, form.fields.get("uploadToken"))) ?? null;
    const handler = intents[intent];
    if (!handler) return formError(intent, "Unknown action.", 400);
    const r = await handler({ ...base, upload } as C);
    handedOver = r.handedOver ?? false;
    return r.response;
  } finally {
    if (!handedOver && upload) await deleteUpload(upload);
  }
}
