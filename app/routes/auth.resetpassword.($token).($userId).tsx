import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { echoCapped } from "~/utils/echo-cap";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { AuthCard } from "~/components/auth-card";
import { PasswordField, TitledFieldErrors, useHydrated } from "~/components/account-fields";
import { AuthStatus, PrimaryLink, SecondaryLink } from "~/components/auth-status";
import { buttonClass } from "~/components/ui/form";
import { ACCOUNT_MESSAGES, PASSWORD_MIN, resetPasswordSchema } from "~/accounts/forms";
import { getDb } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { endUserSessions, flashToast } from "~/utils/session.server";
import { clearLoginFailures } from "~/utils/throttle.server";
import { resetPasswordWithToken } from "~/models/account.server";
import { looksLikeTokenLink, validateToken } from "~/models/auth-token.server";
import { justUsedLink, redirectToUsedLink } from "~/accounts/link-done.server";

export const meta: MetaFunction = () => [{ title: "Reset password · Data Purging Tool" }, { name: "robots", content: "noindex" }];

/** The link's token must not leak to other sites through the Referer header, nor into a shared cache. (Not "no-referrer": that sends "Origin: null" with the form post, which the same-origin check refuses.) */
export const headers: HeadersFunction = () => ({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });

export const RESET_MESSAGES = {
  missing: { title: "Invalid Link", message: "The password reset link is invalid or incomplete." },
  invalid: { title: "Invalid or Expired Link", message: "This password reset link is invalid or has expired." },
  request: { title: "Invalid Request", message: ACCOUNT_MESSAGES.missingResetParams },
  done: { title: "Password Reset Successful", message: "Password reset successfully" },
  error: { title: "Reset Failed", message: "Failed to reset password. Please try again." },
} as const;

type State = "form" | "missing" | "invalid" | "request" | "done" | "error";
type ActionResult = { state: State; result?: SubmissionResult<string[]> };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { token, userId } = params;
  if (!token || !userId) return data({ state: "missing" as State }, { status: 400 });
  if (!looksLikeTokenLink(token, userId)) return data({ state: "invalid" as State }, { status: 400 });
  const valid = await validateToken(await getDb(), { token, userId, kind: "reset" });
  if (valid) return data({ state: "form" as State });
  const used = justUsedLink(request, "reset");
  if (used) return data({ state: "done" as State }, { headers: { "Set-Cookie": used.clear } });
  return data({ state: "invalid" as State }, { status: 400 });
}

/** Sets the new password (single-use link), ends every session of the user, and clears their sign-in lock. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { token, userId } = params;
  if (!token || !userId) return data<ActionResult>({ state: "request" }, { status: 400 });
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: resetPasswordSchema });
  if (submission.status !== "success") {
    return data<ActionResult>({ state: "form", result: echoCapped(submission.reply({ hideFields: ["password", "confirmPassword"] })) }, { status: 400 });
  }
  try {
    const db = await getDb();
    const passwordHash = await hashPassword(submission.value.password);
    const done = await resetPasswordWithToken(db, { token, userId, passwordHash });
    if (!done) return data<ActionResult>({ state: "invalid" }, { status: 400 });
    await endUserSessions(done.userId);
    await clearLoginFailures(db, done.email);
    const toast = await flashToast(request, { kind: "success", title: RESET_MESSAGES.done.title, description: RESET_MESSAGES.done.message });
    return redirectToUsedLink(request, "reset", [["Set-Cookie", toast]]);
  } catch (e) {
    console.error(e);
    return data<ActionResult>({ state: "error" }, { status: 500 });
  }
}

export default function ResetPassword() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const state: State = actionData?.state ?? loaderData.state;
  return (
    <AuthCard title="Reset password">
      {state === "form" && <ResetForm lastResult={actionData?.result} />}
      {(state === "missing" || state === "invalid" || state === "request" || state === "error") && (
        <AuthStatus tone="error" title={RESET_MESSAGES[state].title} message={RESET_MESSAGES[state].message} testId="reset-error">
          <PrimaryLink to="/forgot-password">Request New Reset Link</PrimaryLink>
          <SecondaryLink to="/login">Back to Login</SecondaryLink>
        </AuthStatus>
      )}
      {state === "done" && (
        <AuthStatus
          tone="success"
          title={RESET_MESSAGES.done.title}
          message={`${RESET_MESSAGES.done.message}. You can now sign in with your new password.`}
          testId="reset-done"
        >
          <PrimaryLink to="/login">Continue to Login</PrimaryLink>
        </AuthStatus>
      )}
    </AuthCard>
  );
}

function ResetForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  const mismatch = hydrated && confirm.length > 0 && password !== confirm;
  const ready = password.length >= PASSWORD_MIN && password === confirm;
  const busy = navigation.state === "submitting";
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <p className="text-sm text-slate-600">Choose a new password for your account (at least {PASSWORD_MIN} characters).</p>
      <TitledFieldErrors errors={form.errors} />
      <PasswordField label="New password" field={fields.password} onValue={setPassword} />
      <PasswordField
        label="Confirm new password"
        field={fields.confirmPassword}
        onValue={setConfirm}
        extraError={mismatch ? ACCOUNT_MESSAGES.inlineMismatch : undefined}
      />
      <button type="submit" className={`${buttonClass} w-full`} disabled={busy || (hydrated && !ready)}>
        {busy ? "Resetting..." : "Reset Password"}
      </button>
    </Form>
  );
}
