import { getFormProps, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { DialogShell } from "~/components/ui/dialog-shell";
import { NumbersInput } from "./list-ui";

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

/** The upload limits a list dialog states and checks in the browser. */
export type UploadLimits = { maxUploadText: string; maxUploadBytes: number };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Field = FieldMetadata<any, any, string[]>;

/**
 * A list dialog whose form may carry a file (containers, exemption lists, DNC loads): the hidden fields, the form's
 * errors, the caller's fields, the list input (typed numbers or a file; `numbers` renders the shared one, `input`
 * another) and the buttons, which say "Uploading..." while a file goes up ahead of the form.
 */
export function ListUploadDialog({
  title,
  description,
  closeHref,
  testId,
  form,
  hidden,
  limits,
  numbers,
  input,
  after,
  submit,
  children,
}: {
  title: string;
  description?: string;
  closeHref: string;
  testId?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  hidden: Record<string, string | number>;
  limits: UploadLimits;
  numbers?: { method: Field; numbers: Field; file: Field; fileHint?: string };
  input?: (onBusyChange: (busy: boolean) => void) => ReactNode;
  /** Fields after the list input. */
  after?: ReactNode;
  submit: { label: string; busyLabel: string; danger?: boolean };
  /** Fields before the list input. */
  children?: ReactNode;
}) {
  const [uploading, setUploading] = useState(false);
  return (
    <ListDialog title={title} description={description} closeHref={closeHref} testId={testId}>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <FormErrors errors={form.errors} />
        {children}
        {numbers && <NumbersInput {...numbers} {...limits} onBusyChange={setUploading} />}
        {input?.(setUploading)}
        {after}
        <DialogButtons cancelTo={closeHref} label={submit.label} busyLabel={submit.busyLabel} danger={submit.danger} uploading={uploading} />
      </Form>
    </ListDialog>
  );
}
