import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useEffect, useState } from "react";
import { inputClass } from "~/components/ui/form";
import { MESSAGE_TITLES } from "~/accounts/forms";

/** True once React runs in the browser (JS-only controls render only then). */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** A field's errors; the spec's titled messages (e.g. Password Mismatch) show their title too. */
export function TitledFieldErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div id={id} className="mt-1 text-sm text-red-600" role="alert">
      {errors.map((e) => (
        <p key={e}>
          {MESSAGE_TITLES[e] && <span className="font-semibold">{MESSAGE_TITLES[e]}: </span>}
          {e}
        </p>
      ))}
    </div>
  );
}

type Field = FieldMetadata<any, any, string[]>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function AccountField({
  label,
  field,
  type = "text",
  autoComplete,
  inputMode,
  placeholder,
}: {
  label: string;
  field: Field;
  type?: "text" | "email" | "tel";
  autoComplete?: string;
  inputMode?: "numeric" | "text" | "email" | "tel";
  placeholder?: string;
}) {
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input {...getInputProps(field, { type })} autoComplete={autoComplete} inputMode={inputMode} placeholder={placeholder} className={inputClass} />
      <TitledFieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A password input with a show/hide toggle (the toggle appears once JavaScript runs). */
export function PasswordField({
  label,
  field,
  autoComplete = "new-password",
  onValue,
  extraError,
}: {
  label: string;
  field: Field;
  autoComplete?: string;
  onValue?: (value: string) => void;
  /** a live message from the page (e.g. the inline Passwords do not match), shown when the field has none */
  extraError?: string;
}) {
  const hydrated = useHydrated();
  const [shown, setShown] = useState(false);
  const errors = field.errors?.length ? field.errors : extraError ? [extraError] : undefined;
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative">
        <input
          {...getInputProps(field, { type: shown ? "text" : "password" })}
          autoComplete={autoComplete}
          className={`${inputClass} ${hydrated ? "pr-16" : ""}`}
          onInput={onValue ? (e) => onValue(e.currentTarget.value) : undefined}
        />
        {hydrated && (
          <button
            type="button"
            className="absolute inset-y-0 right-0 px-3 text-xs font-medium text-slate-600 hover:text-slate-900"
            aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-pressed={shown}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? "Hide" : "Show"}
          </button>
        )}
      </div>
      <TitledFieldErrors id={field.errorId} errors={errors} />
    </div>
  );
}
