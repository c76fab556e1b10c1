import { getScrubService } from "~/utils/scrub.server";
import { CSV_MESSAGES, parseWizardState, wizardHref } from "~/intake/purge-wizard";
import { formErrorOf } from "~/utils/action-reply.server";
import { previewUpload } from "./preview.server";
import type { UploadForm } from "./upload-form.server";
import { deleteUpload, getUpload } from "./upload-store.server";

export type WizardUploadOutcome = { ok: true; redirectTo: string } | { ok: false; status: number; message: string };

/**
 * The purge wizard's step 4 (CSV), for /purge (no JavaScript) and /purge/upload (with progress): check the
 * new file (and delete it when refused), or keep the one uploaded before when no new file came.
 */
export async function acceptWizardUpload(userId: string, form: UploadForm): Promise<WizardUploadOutcome> {
  if (form.refusal) return { ok: false, ...form.refusal };
  if (form.malformed) return { ok: false, status: 400, message: CSV_MESSAGES.unreadable };
  const state = parseWizardState(form.fields);
  if (form.upload) {
    try {
      const summary = await previewUpload(await getScrubService(), form.upload);
      return {
        ok: true,
        redirectTo: wizardHref(state, { step: 5, mode: "csv", upload: form.upload.id, sheet: "", column: summary.phoneColumn ?? "", job: "" }),
      };
    } catch (e) {
      await deleteUpload(form.upload);
      const err = formErrorOf(e);
      if (err) return { ok: false, status: err.status, message: err.message };
      throw e;
    }
  }
  // No new file: keep the one uploaded before (going back and forth does not re-upload).
  const existing = await getUpload(userId, state.upload);
  if (existing && !existing.manual) return { ok: true, redirectTo: wizardHref(state, { step: 5, mode: "csv", job: "" }) };
  return { ok: false, status: 400, message: CSV_MESSAGES.noFile };
}
