import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";

/**
 * A modal panel rendered by the server (opened by a ?dialog= search param), so it works without JavaScript:
 * a title, an optional description, a × link to `closeHref`; with JavaScript, Escape goes there too.
 */
export function DialogShell({
  title,
  description,
  closeHref,
  children,
  testId,
  replace = false,
  focusFirstField = false,
}: {
  title: string;
  description?: string;
  closeHref: string;
  children: React.ReactNode;
  testId?: string;
  /** Closing replaces the history entry instead of adding one. */
  replace?: boolean;
  /** Focus the first field on open (or, with no field, the first link: Close, never a destructive button). */
  focusFirstField?: boolean;
}) {
  const id = useId();
  const navigate = useNavigate();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focusFirstField) return;
    const el = panel.current;
    (el?.querySelector<HTMLElement>("input:not([type=hidden]), select") ?? el?.querySelector<HTMLElement>("a[href]"))?.focus();
  }, [focusFirstField]);
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key === "Escape") navigate(closeHref, replace ? { preventScrollReset: true, replace: true } : { preventScrollReset: true });
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [closeHref, navigate, replace]);
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-slate-900/40 p-4">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        data-testid={testId}
        className="my-8 w-full max-w-lg rounded-xl bg-white p-6 shadow-xl"
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
          </div>
          <Link to={closeHref} preventScrollReset replace={replace} aria-label="Close" className="text-xl leading-none text-slate-400 hover:text-slate-700">
            ×
          </Link>
        </div>
        {children}
      </div>
    </div>
  );
}
