import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/utils/safe-redirect-path";
import { sidebarCookie } from "~/utils/sidebar.server";

// Only a display preference: no sign-in needed.
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const expanded = form.get("expanded") === "true";
  return redirect(safeRedirectPath(form.get("redirectTo"), "/dashboard"), {
    headers: { "Set-Cookie": sidebarCookie(expanded) },
  });
}

export async function loader() {
  return redirect("/dashboard");
}
