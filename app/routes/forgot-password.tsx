import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { echoCapped } from "~/utils/echo-cap";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { AccountField } from "~/components/account-fields";
import { AuthStatus, PrimaryLink, SecondaryLink } from "~/components/auth-status";
import { buttonClass, FormErrors } from "~/components/ui/form";
import { forgotPasswordSchema } from "~/accounts/forms";
import { clientIp } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { sendEmailWithoutWaiting } from "~/utils/email.server";
import { greetingName, passwordResetEmail } from "~/utils/email-templates.server";
import { takeRateLimit } from "~/utils/throttle.server";
import { issueToken, tokenUrl } from "~/models/auth-token.server";
import { findLiveUserByEmail } from "~/models/user.server";
import { afterResponse } from "~/utils/after-response.server";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";

export const meta: MetaFunction = () => [{ title: "Forgot password · Data Purging Tool" }];

/** Reset e-mails per address and per client address, per hour; over the limit nothing is sent (same answer). */
export const RESET_MAIL_LIMITS = { perEmail: 5, perIp: 30, windowMs: 60 * 60 * 1000 } as const;

export async function loader() {
  return null;
}

/**
 * Answers the same whether or not the address has an account, with the same work before answering: two
 * rate-limit counters. Looking the account up, issuing the link and writing the mail happen after the
 * answer (afterResponse), so its timing cannot tell a real address from an unknown one
 * (tests/security/forgot-password-timing.test.ts, docs/decisions/118). Only Active and unconfirmed (Draft)
 * accounts get a link; a reset of a Draft account confirms it, as the link proves the mailbox.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data({ sent: false as const, email: "", result: echoCapped(submission.reply()) }, { status: 400 });
  const email = submission.value.email.toLowerCase();
  try {
    const db = await getDb();
    const byEmail = await takeRateLimit(db, `reset-mail:email:${email}`, RESET_MAIL_LIMITS.perEmail, RESET_MAIL_LIMITS.windowMs);
    const byIp = await takeRateLimit(db, `reset-mail:ip:${clientIp(context)}`, RESET_MAIL_LIMITS.perIp, RESET_MAIL_LIMITS.windowMs);
    if (byEmail && byIp) afterResponse("forgot-password", () => sendResetLink(db, email));
    return data({ sent: true as const, email, result: undefined });
  } catch (e) {
    console.error(e);
    return data(
      { sent: false as const, email: "", result: echoCapped(submission.reply({ formErrors: ["Failed to send password reset email."] })) },
      { status: 500 },
    );
  }
}

async function sendResetLink(db: Kysely<Database>, email: string): Promise<void> {
  const user = await findLiveUserByEmail(db, email);
  if (!user || (user.status !== "Active" && user.status !== "Draft")) return;
  const { token } = await issueToken(db, { userId: user.id, kind: "reset" });
  await sendEmailWithoutWaiting({ to: user.email, ...passwordResetEmail({ firstName: greetingName(user), url: tokenUrl("reset", token, user.id) }) });
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  if (actionData?.sent) {
    return (
      <AuthCard title="Forgot password">
        <AuthStatus
          tone="success"
          title="Check Your Email"
          testId="check-your-email"
          message={
            <>
              <p>
                If an account exists for <span className="font-medium text-slate-900">{actionData.email}</span>, we have sent a link to reset your password.
              </p>
              <p className="mt-2">The link works for 1 hour. Check your spam folder if it does not arrive in a few minutes.</p>
            </>
          }
        >
          <SecondaryLink to="/forgot-password">Try Different Email</SecondaryLink>
          <PrimaryLink to="/login">Back to Login</PrimaryLink>
        </AuthStatus>
      </AuthCard>
    );
  }
  return <RequestForm lastResult={actionData?.result} />;
}

function RequestForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  const busy = navigation.state === "submitting";
  return (
    <AuthCard title="Forgot password" subtitle="Enter your email and we'll send you a link to reset your password.">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors?.length ? (
          <div>
            <p className="mb-1 text-sm font-semibold text-red-700">Error</p>
            <FormErrors errors={form.errors} />
          </div>
        ) : null}
        <AccountField label="Email" field={fields.email} type="email" autoComplete="email" />
        <button type="submit" className={`${buttonClass} w-full`} disabled={busy}>
          {busy ? "Sending..." : "Send Reset Link"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="text-blue-600 hover:underline">
          Back to Login
        </Link>
      </p>
    </AuthCard>
  );
}
