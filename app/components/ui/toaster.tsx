import { useEffect, useState } from "react";

export interface ToastMessage {
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
}

const styles: Record<ToastMessage["kind"], string> = {
  success: "border-green-200 bg-green-50 text-green-900",
  error: "border-red-200 bg-red-50 text-red-900",
  info: "border-blue-200 bg-blue-50 text-blue-900",
};

/** Shows one flashed toast; dismissible, gone after 4 seconds when JavaScript runs. */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const [visible, setVisible] = useState<ToastMessage | null>(toast);
  // Until JavaScript runs (or without it), a CSS-only close: a label toggles a checkbox that hides the toast.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    setVisible(toast);
    if (!toast) return;
    const t = setTimeout(() => setVisible(null), 4000);
    return () => clearTimeout(t);
  }, [toast]);
  if (!visible) return null;
  return (
    <div className="fixed right-4 bottom-4 z-50 w-80" aria-live="polite">
      {!hydrated && <input type="checkbox" id="toast-dismiss" className="peer sr-only" aria-label="Dismiss notification" />}
      <div role="status" data-toast={visible.kind} className={`rounded-lg border p-4 shadow-lg peer-checked:hidden ${styles[visible.kind]}`}>
        <div className="flex items-start justify-between gap-2">
          <div>
            <p className="font-semibold">{visible.title}</p>
            {visible.description && <p className="mt-1 text-sm">{visible.description}</p>}
          </div>
          {hydrated ? (
            <button type="button" aria-label="Dismiss" className="text-lg leading-none opacity-60 hover:opacity-100" onClick={() => setVisible(null)}>
              ×
            </button>
          ) : (
            <label htmlFor="toast-dismiss" aria-hidden className="cursor-pointer text-lg leading-none opacity-60 hover:opacity-100">
              ×
            </label>
          )}
        </div>
      </div>
    </div>
  );
}
