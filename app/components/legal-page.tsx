import { Link, useNavigate } from "@remix-run/react";

/**
 * Back: with JavaScript it goes back in history (when there is history to go back to); without, it is a
 * plain link to the home page.
 */
export function BackButton() {
  const navigate = useNavigate();
  return (
    <Link
      to="/"
      className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50"
      onClick={(e) => {
        if (window.history.length > 1) {
          e.preventDefault();
          navigate(-1);
        }
      }}
    >
      <span aria-hidden="true">←</span> Back
    </Link>
  );
}

/** A public page's frame (legal pages, /rules): the back button and the product's name above the content. */
export function PublicPage({ wide = false, children }: { wide?: boolean; children: React.ReactNode }) {
  return (
    <main className="min-h-screen bg-slate-50">
      <div className={`mx-auto ${wide ? "max-w-5xl" : "max-w-3xl"} px-4 py-8 sm:py-12`}>
        <div className="mb-6 flex items-center justify-between">
          <BackButton />
          <Link to="/" className="text-sm font-semibold text-slate-800">
            Data Purging Tool
          </Link>
        </div>
        {children}
      </div>
    </main>
  );
}

export function LegalPage({ title, updated, children }: { title: string; updated: string; children: React.ReactNode }) {
  return (
    <PublicPage>
      <article className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-slate-500">Last updated: {updated}</p>
        <div className="legal mt-8 space-y-6 text-sm leading-6 text-slate-700">{children}</div>
      </article>
    </PublicPage>
  );
}

export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}
