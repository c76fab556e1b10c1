import { getFormProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import type { RoleName, UserStatus } from "db/schema";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass, TextField } from "~/components/ui/form";
import { ROLE_LABELS } from "~/models/user-permissions";
import { DialogShell } from "~/components/ui/dialog-shell";
import { editUserFormSchema, userFormSchema } from "./user-form-schema";

/** A modal panel rendered by the server (opened by a ?dialog= search param), so it works without JavaScript. */
export function Modal({ title, closeHref, children, description }: { title: string; closeHref: string; children: React.ReactNode; description?: string }) {
  return (
    <DialogShell title={title} description={description} closeHref={closeHref} focusFirstField>
      {children}
      <CloseForm closeHref={closeHref} />
    </DialogShell>
  );
}

const CLOSE_FORM_ID = "close-dialog";

/** A GET form back to the list (same filters and page); Cancel submits it, so Cancel is a real button without JS. */
function CloseForm({ closeHref }: { closeHref: string }) {
  const url = new URL(closeHref, "http://x");
  return (
    <Form method="get" action={url.pathname} id={CLOSE_FORM_ID} preventScrollReset className="hidden">
      {[...url.searchParams.entries()].map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
    </Form>
  );
}

function CancelButton() {
  return (
    <button
      type="submit"
      form={CLOSE_FORM_ID}
      formNoValidate
      className={secondaryButtonClass}
      // Keeps focus in the field: its blur would show "required" errors that move Cancel away from the pointer.
      onMouseDown={(e) => e.preventDefault()}
    >
      Cancel
    </button>
  );
}

function SelectField({
  label,
  field,
  options,
  disabled,
}: {
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: FieldMetadata<any, any, string[]>;
  options: Array<{ value: string; label: string }>;
  disabled?: boolean;
}) {
  const props = getSelectProps(field);
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {disabled ? (
        <>
          <input type="hidden" name={field.name} value={String(field.initialValue ?? "")} />
          <select id={field.id} className={`${inputClass} bg-slate-50`} disabled value={String(field.initialValue ?? "")} onChange={() => {}}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </>
      ) : (
        <select {...props} key={props.key} className={inputClass}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export interface DialogUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  phoneNumber: string;
  role: RoleName;
  status: UserStatus;
  plan: string;
}

export function UserDialog({
  mode,
  user,
  closeHref,
  lastResult,
  roles,
  plans,
  canChangeRole = true,
  canChangeStatus = true,
  canChangePlan = true,
}: {
  mode: "create" | "edit";
  user?: DialogUser;
  closeHref: string;
  lastResult?: SubmissionResult<string[]> | null;
  /** roles the viewer may grant (plus the user's current role when editing) */
  roles: RoleName[];
  plans: Array<{ id: string; name: string }>;
  canChangeRole?: boolean;
  canChangeStatus?: boolean;
  canChangePlan?: boolean;
}) {
  const navigation = useNavigation();
  const intent = mode === "create" ? "create" : "update";
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const schema = mode === "create" ? userFormSchema : editUserFormSchema;
  const [form, fields] = useForm({
    id: `user-${mode}-${user?.id ?? "new"}`,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: user
      ? { ...user }
      : { role: "NormalUser", plan: "none", status: "Active", firstName: "", lastName: "", email: "", phoneNumber: "", company: "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  // Editing offers only what the server accepts: Active or Blocked, or keeping the current status.
  const statusOptions = (mode === "create" ? ["Active", "Blocked", "Pending"] : ["Active", "Blocked"]).map((s) => ({ value: s, label: s }));
  if (user && !statusOptions.some((o) => o.value === user.status)) statusOptions.push({ value: user.status, label: user.status });
  const roleOptions = roles.map((r) => ({ value: r, label: ROLE_LABELS[r] }));
  const planOptions = [{ value: "none", label: "No Plan" }, ...plans.map((p) => ({ value: p.id, label: p.name }))];
  if (user && !planOptions.some((o) => o.value === user.plan)) planOptions.push({ value: user.plan, label: user.plan });
  const fieldsAny = fields as unknown as Record<string, FieldMetadata<string, Record<string, unknown>, string[]>>;
  return (
    <Modal
      title={mode === "create" ? "Create New User" : "Edit User"}
      closeHref={closeHref}
      description={mode === "create" ? "An invitation e-mail lets the user set their password." : undefined}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        {user && <input type="hidden" name="userId" value={user.id} />}
        <FormErrors errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First Name*" field={fields.firstName} autoComplete="off" />
          <TextField label="Last Name*" field={fields.lastName} autoComplete="off" />
        </div>
        <TextField label="Email Address*" field={fields.email} type="email" autoComplete="off" />
        <div className="grid gap-4 sm:grid-cols-2">
          <PhoneField field={fields.phoneNumber} />
          <TextField label="Company" field={fields.company} autoComplete="off" />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField label="Role*" field={fieldsAny.role} options={roleOptions} disabled={!canChangeRole} />
          <SelectField label="Subscription Plan*" field={fieldsAny.plan} options={planOptions} disabled={!canChangePlan} />
          <SelectField label="Status*" field={fieldsAny.status} options={statusOptions} disabled={!canChangeStatus} />
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <CancelButton />
          <button type="submit" className={buttonClass} disabled={busy}>
            {mode === "create" ? (busy ? "Creating..." : "Create User") : busy ? "Saving..." : "Save Changes"}
          </button>
        </div>
      </Form>
    </Modal>
  );
}

/** Digits only, at most 11 while typing (spec); the server checks again on submit. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function PhoneField({ field }: { field: FieldMetadata<any, any, string[]> }) {
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        Phone Number
      </label>
      <input
        id={field.id}
        name={field.name}
        key={field.key}
        defaultValue={String(field.initialValue ?? "")}
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        maxLength={11}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
        onInput={(e) => {
          const el = e.currentTarget;
          const digits = el.value.replace(/\D/g, "").slice(0, 11);
          if (digits !== el.value) el.value = digits;
        }}
        className={inputClass}
      />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function DeleteUserDialog({ user, closeHref }: { user: { id: string; name: string; email: string }; closeHref: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";
  return (
    <Modal title="Delete User" closeHref={closeHref}>
      <p className="text-sm text-slate-700">Are you sure you want to delete this user?</p>
      <div className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
        <p className="font-medium text-slate-900">{user.name}</p>
        <p className="text-slate-600">{user.email}</p>
      </div>
      <Form method="post" className="mt-6 flex justify-end gap-2" preventScrollReset>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="userId" value={user.id} />
        <CancelButton />
        <button type="submit" className={`${buttonClass} bg-red-600 hover:bg-red-700`} disabled={busy}>
          {busy ? "Deleting..." : "Delete User"}
        </button>
      </Form>
    </Modal>
  );
}
