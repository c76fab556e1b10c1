import { Form, Link } from "@remix-run/react";
import type { WizardState } from "~/intake/purge-wizard";
import { inputClass } from "~/components/ui/form";
import { Hidden, NavButtons } from "./wizard-nav";

/**
 * A wizard step that picks one optional item (a category, a container) from a select; when the user has
 * none yet, a note links to where they are created.
 */
export function OptionalSelectStep({
  state,
  name,
  id,
  label,
  hint,
  noneLabel,
  emptyNote,
  children,
  extra,
}: {
  state: WizardState;
  name: "category" | "container";
  id: string;
  label: string;
  hint: string;
  noneLabel: string;
  /** Shown when there is nothing to choose: "You have no … yet." and a link. */
  emptyNote: { text: string; to: string; linkLabel: string } | null;
  children: React.ReactNode;
  /** More fields of the same step (the container step's exemption list), sent with the same form. */
  extra?: { name: "exemptions"; node: React.ReactNode };
}) {
  return (
    <Form method="get" action="/purge">
      <Hidden state={state} omit={extra ? [name, extra.name, "job"] : [name, "job"]} />
      <label htmlFor={id} className="text-base font-semibold">
        {label}
      </label>
      <p className="mb-3 text-sm text-slate-600">{hint}</p>
      <select id={id} name={name} defaultValue={state[name]} className={inputClass}>
        <option value="">{noneLabel}</option>
        {children}
      </select>
      {emptyNote && (
        <p className="mt-2 text-sm text-slate-500">
          {emptyNote.text}{" "}
          <Link to={emptyNote.to} className="text-blue-600 hover:underline">
            {emptyNote.linkLabel}
          </Link>
        </p>
      )}
      {extra?.node}
      <NavButtons state={state} />
    </Form>
  );
}
