import type { SubmissionResult } from "@conform-to/react";
import { Link, useActionData, useNavigation } from "@remix-run/react";
import { buttonClass, FieldErrors, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { DialogShell } from "~/components/ui/dialog-shell";

/**
 * The one list-dialog module of the list pages (containers, exemption lists, DNC Management): the dialog panel,
 * the form's last answer from the action, and the Cancel / submit row. The server side of the same contract
 * (the `{ intent, result }` reply) is `app/intake/list-dialog.server.ts`.
 */

/** What a list page's action answers a dialog's form: its intent and the conform result. */
export type ListDialogReply = { intent: string; result: SubmissionResult<string[]> };

/** A modal panel opened by a ?dialog= search param (server-rendered: works without JavaScript). */
export function ListDialog(props: { title: string; description?: string; closeHref: string; children: React.ReactNode; testId?: string }) {
  return <DialogShell {...props} replace />;
}

/** The action's answer to this dialog's form (another intent's answer is not this form's). */
export function useListResult(intent: string): SubmissionResult<string[]> | undefined {
  const actionData = useActionData() as ListDialogReply | undefined;
  return actionData?.intent === intent ? actionData.result : undefined;
}

/** Cancel (back to the page) and the submit button, which says what is happening while a form or its file goes up. */
export function DialogButtons({
  cancelTo,
  label,
  busyLabel,
  uploading = false,
  danger = false,
}: {
  cancelTo: string;
  label: string;
  busyLabel: string;
  uploading?: boolean;
  danger?: boolean;
}) {
  const navigation = useNavigation();
  // Only a POST is "submitting" (a GET form goes straight to loading).
  const busy = uploading || navigation.state === "submitting";
  return (
    <div className="flex justify-end gap-2 pt-2">
      <Link to={cancelTo} replace className={secondaryButtonClass}>
        Cancel
      </Link>
      <button type="submit" className={danger ? `${buttonClass} bg-red-600 hover:bg-red-700` : buttonClass} disabled={busy}>
        {uploading ? "Uploading..." : busy ? busyLabel : label}
      </button>
    </div>
  );
}

/** A list's optional description (containers, categories, exemption lists). */
export function DescriptionField({ field }: { field: { id: string; name: string; initialValue?: unknown; errorId: string; errors?: string[] } }) {
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        Description
      </label>
      <textarea
        id={field.id}
        name={field.name}
        rows={2}
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
        className={inputClass}
        placeholder="Optional"
      />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}
