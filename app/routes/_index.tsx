import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Data Purging Tool" }];

// Landing page placeholder; the full landing page is built with the public-face work.
export default function Landing() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 p-8 text-center">
      <h1 className="text-4xl font-bold tracking-tight">Data Purging Tool</h1>
      <p className="max-w-xl text-slate-600">Remove duplicates, invalid numbers and do-not-call numbers from your phone lists.</p>
      <div className="flex gap-3">
        <Link to="/login" className="rounded-md border border-slate-300 px-4 py-2">
          Sign In
        </Link>
        <Link to="/signup" className="rounded-md bg-blue-600 px-4 py-2 text-white">
          Get Started
        </Link>
      </div>
    </main>
  );
}
