import { Link } from "@remix-run/react";

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-50 to-blue-50 p-4">
      <div className="w-full max-w-md">
        <Link to="/" className="mb-6 block text-center text-lg font-semibold text-slate-800">
          Data Purging Tool
        </Link>
        <section className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
          <h1 className="text-xl font-semibold">{title}</h1>
          {subtitle && <p className="mt-1 text-sm text-slate-600">{subtitle}</p>}
          <div className="mt-6">{children}</div>
        </section>
      </div>
    </main>
  );
}

/** The foot of the sign-in and sign-up cards: "{question} {link}" to the other form, then Back to home. */
export function AuthCardFooter({ question, linkText, to }: { question: string; linkText: string; to: string }) {
  return (
    <>
      <p className="mt-6 text-center text-sm text-slate-600">
        {question}{" "}
        <Link to={to} className="text-blue-600 hover:underline">
          {linkText}
        </Link>
      </p>
      <p className="mt-2 text-center text-sm">
        <Link to="/" className="text-slate-500 hover:underline">
          Back to home
        </Link>
      </p>
    </>
  );
}
