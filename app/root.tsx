import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteError } from "@remix-run/react";
import stylesheet from "./tailwind.css";
import { commitSession, getSession, type Toast } from "./utils/session.server";
import { getOptionalUser } from "./accounts/auth.server";
import { readSidebarExpanded } from "./utils/sidebar.server";
import { Toaster } from "./components/ui/toaster";
import { useNonce } from "./utils/nonce";
import { TimeZoneProvider } from "./utils/time-zone";
import { viewerTimeZone } from "./utils/time-zone.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Data Purging Tool" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const toast = (session.get("toast") as Toast | undefined) ?? null;
  const user = await getOptionalUser(request);
  const headers = new Headers();
  if (toast) headers.append("Set-Cookie", await commitSession(session));
  return data({ user, toast, sidebarExpanded: readSidebarExpanded(request), timeZone: viewerTimeZone(request) }, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast, timeZone } = useLoaderData<typeof loader>();
  return (
    <TimeZoneProvider serverZone={timeZone}>
      <Outlet />
      <Toaster toast={toast} />
    </TimeZoneProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-2xl font-semibold">{notFound ? "Oops! Page not found" : "Something went wrong"}</h1>
      {!notFound && <p className="text-slate-600">An unexpected error occurred. Please try again.</p>}
      <Link to="/" className="text-blue-600 underline">
        Return to Home
      </Link>
    </main>
  );
}
