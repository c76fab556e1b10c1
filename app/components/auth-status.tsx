import { Link } from "@remix-run/react";
import { buttonClass, secondaryButtonClass } from "~/components/ui/form";

type Tone = "success" | "error" | "info" | "busy";

const iconStyles: Record<Tone, string> = {
  success: "bg-green-100 text-green-700",
  error: "bg-red-100 text-red-700",
  info: "bg-blue-100 text-blue-700",
  busy: "bg-blue-50 text-blue-600",
};

function Icon({ tone }: { tone: Tone }) {
  if (tone === "busy") {
    return <span className="block h-6 w-6 animate-spin rounded-full border-2 border-blue-200 border-t-blue-600" aria-hidden="true" />;
  }
  const path =
    tone === "success"
      ? "M5 13l4 4L19 7"
      : tone === "error"
        ? "M6 18L18 6M6 6l12 12"
        : "M3 8l9 6 9-6M5 6h14a2 2 0 012 2v8a2 2 0 01-2 2H5a2 2 0 01-2-2V8a2 2 0 012-2z";
  return (
    <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth={tone === "info" ? 2 : 2.5} aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" d={path} />
    </svg>
  );
}

/** One state of a link page (confirming, confirmed, invalid link, done): icon, title, message, actions. */
export function AuthStatus({
  tone,
  title,
  message,
  children,
  testId,
}: {
  tone: Tone;
  title: string;
  message?: React.ReactNode;
  children?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className="text-center" data-testid={testId} role={tone === "error" ? "alert" : "status"}>
      <div className={`mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full ${iconStyles[tone]}`}>
        <Icon tone={tone} />
      </div>
      <h2 className="text-lg font-semibold">{title}</h2>
      {message && <div className="mt-2 text-sm text-slate-600">{message}</div>}
      {children && <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-center">{children}</div>}
    </div>
  );
}

export function PrimaryLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className={buttonClass}>
      {children}
    </Link>
  );
}

export function SecondaryLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className={secondaryButtonClass}>
      {children}
    </Link>
  );
}
