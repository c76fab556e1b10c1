import { getFormProps, useForm } from "@conform-to/react";
import { echoCapped } from "~/utils/echo-cap";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { AuthCard, AuthCardFooter } from "~/components/auth-card";
import { AccountField, PasswordField } from "~/components/account-fields";
import { buttonClass, FormErrors } from "~/components/ui/form";
import { signupSchema } from "~/accounts/forms";
import { clientIp, getOptionalUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { sendEmailWithoutWaiting } from "~/utils/email.server";
import { alreadyRegisteredEmail, greetingName } from "~/utils/email-templates.server";
import { sendConfirmationLink } from "~/accounts/mail.server";
import { appUrl } from "~/utils/env.server";
import { hashPassword } from "~/utils/password.server";
import { flashToast } from "~/utils/session.server";
import { takeRateLimit } from "~/utils/throttle.server";
import { createDraftUser } from "~/models/account.server";
import { findLiveUserByEmail } from "~/models/user.server";

export const meta: MetaFunction = () => [{ title: "Sign up · Data Purging Tool" }];

/** Sign-ups per client address, and "you already have an account" mails per address, per hour. */
export const SIGNUP_LIMITS = { perIp: 20, noticePerEmail: 3, windowMs: 60 * 60 * 1000 } as const;
export const SIGNUP_MESSAGES = {
  created: { title: "Account Created Successfully", description: "Please check your email to confirm your account." },
  tooMany: "Too many sign-ups from your network. Please try again later.",
  failed: "Failed to create account. Please try again.",
} as const;

const secretFields = ["password", "confirmPassword"];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getOptionalUser(request)) throw redirect("/dashboard");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: signupSchema });
  if (submission.status !== "success") return data(echoCapped(submission.reply({ hideFields: secretFields })), { status: 400 });
  const v = submission.value;
  const email = v.email.toLowerCase();
  try {
    const db = await getDb();
    if (!(await takeRateLimit(db, `signup:ip:${clientIp(context)}`, SIGNUP_LIMITS.perIp, SIGNUP_LIMITS.windowMs))) {
      return data(echoCapped(submission.reply({ formErrors: [SIGNUP_MESSAGES.tooMany], hideFields: secretFields })), { status: 429 });
    }
    // Hash first: a taken address costs the same work as a new one.
    const passwordHash = await hashPassword(v.password);
    const existing = await findLiveUserByEmail(db, email);
    const created = existing
      ? null
      : await createDraftUser(db, { email, firstName: v.firstName, lastName: v.lastName, company: v.company, phoneNumber: v.phoneNumber, passwordHash });
    if (created) {
      await sendConfirmationLink(db, { id: created.id, email });
    } else {
      // The address has an account: same answer on screen (no account enumeration), a notice to its owner.
      const owner = existing ?? (await findLiveUserByEmail(db, email));
      if (owner && (await takeRateLimit(db, `signup-notice:email:${email}`, SIGNUP_LIMITS.noticePerEmail, SIGNUP_LIMITS.windowMs))) {
        const base = appUrl();
        await sendEmailWithoutWaiting({
          to: owner.email,
          ...alreadyRegisteredEmail({ firstName: greetingName(owner), loginUrl: `${base}/login`, resetUrl: `${base}/forgot-password` }),
        });
      }
    }
    return redirect("/login", {
      headers: { "Set-Cookie": await flashToast(request, { kind: "success", ...SIGNUP_MESSAGES.created }) },
    });
  } catch (e) {
    console.error(e);
    return data(echoCapped(submission.reply({ formErrors: [SIGNUP_MESSAGES.failed], hideFields: secretFields })), { status: 500 });
  }
}

export default function Signup() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
  });
  const busy = navigation.state === "submitting";
  return (
    <AuthCard title="Create your account" subtitle="Sign up to start cleaning your phone lists">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors?.length ? (
          <div data-testid="signup-failed">
            <p className="mb-1 text-sm font-semibold text-red-700">Signup Failed</p>
            <FormErrors errors={form.errors} />
          </div>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <AccountField label="First name" field={fields.firstName} autoComplete="given-name" />
          <AccountField label="Last name" field={fields.lastName} autoComplete="family-name" />
        </div>
        <AccountField label="Email" field={fields.email} type="email" autoComplete="email" />
        <AccountField label="Company" field={fields.company} autoComplete="organization" />
        <AccountField label="Phone number" field={fields.phoneNumber} type="tel" inputMode="tel" autoComplete="tel" placeholder="(555) 123-4567" />
        <PasswordField label="Password" field={fields.password} />
        <PasswordField label="Confirm password" field={fields.confirmPassword} />
        <p className="text-xs text-slate-500">
          At least 8 characters. By creating an account you agree to the{" "}
          <Link to="/terms" className="text-blue-600 hover:underline">
            Terms of Service
          </Link>{" "}
          and the{" "}
          <Link to="/privacy" className="text-blue-600 hover:underline">
            Privacy Policy
          </Link>
          .
        </p>
        <button type="submit" className={`${buttonClass} w-full`} disabled={busy}>
          {busy ? "Creating account..." : "Create Account"}
        </button>
      </Form>
      <AuthCardFooter question="Already have an account?" linkText="Sign in" to="/login" />
    </AuthCard>
  );
}
