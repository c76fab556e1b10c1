/* The wizard's error box: a failed check or a refused file, on any step. */

export function ValidationAlert({ title = "Validation Error", message }: { title?: string; message: string }) {
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="purge-error">
      <p className="font-semibold">{title}</p>
      <p className="mt-0.5">{message}</p>
    </div>
  );
}
