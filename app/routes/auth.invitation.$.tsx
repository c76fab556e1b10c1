import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { RedirectAfter } from "~/components/ui/redirect-after";
import { AuthCard } from "~/components/auth-card";
import { buttonClass, FormErrors, secondaryButtonClass, TextField } from "~/components/ui/form";
import { completeInvitation, findInvitation } from "~/models/invitation.server";
import { getDb } from "~/utils/db.server";
import { INVITATION_MESSAGES, invitationSchema } from "~/accounts/invitation-form";
import { justUsedLink, redirectToUsedLink } from "~/accounts/link-done.server";

/*
 * /auth/invitation/{token}/{userId}: the invited user's account setup (public). A splat route so that
 * /auth/invitation and /auth/invitation/{token} answer with the spec's "missing token or user ID" state.
 */

export const meta: MetaFunction = () => [{ title: "Account setup · Data Purging Tool" }];

function linkParts(splat: string | undefined): { token?: string; userId?: string; malformed: boolean } {
  const parts = (splat ?? "").split("/").filter(Boolean);
  return { token: parts[0], userId: parts[1], malformed: parts.length > 2 };
}

type State = { state: "missing" } | { state: "invalid" } | { state: "error" } | { state: "form"; email: string } | { state: "done" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { token, userId, malformed } = linkParts(params["*"]);
  if (!token || !userId) return data<State>({ state: "missing" }, { status: 400 });
  let invited: Awaited<ReturnType<typeof findInvitation>>;
  try {
    invited = malformed ? null : await findInvitation(await getDb(), token, userId);
  } catch (e) {
    console.error(e);
    return data<State>({ state: "error" }, { status: 500 });
  }
  if (invited) return data<State>({ state: "form", email: invited.email });
  const used = justUsedLink(request, "invitation");
  if (used) return data<State>({ state: "done" }, { headers: { "Set-Cookie": used.clear } });
  return data<State>({ state: "invalid" }, { status: 404 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { token, userId, malformed } = linkParts(params["*"]);
  if (!token || !userId) return data({ state: "missing" as const, result: null }, { status: 400 });
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: invitationSchema });
  if (submission.status !== "success") {
    return data({ state: "form" as const, result: submission.reply({ hideFields: ["password", "confirmPassword"] }) }, { status: 400 });
  }
  let ok = false;
  try {
    ok = !malformed && (await completeInvitation(await getDb(), { token, userId, password: submission.value.password }));
  } catch (e) {
    console.error(e);
    return data(
      { state: "form" as const, result: submission.reply({ formErrors: [INVITATION_MESSAGES.failed], hideFields: ["password", "confirmPassword"] }) },
      { status: 500 },
    );
  }
  if (!ok) return data({ state: "invalid" as const, result: null }, { status: 404 });
  return redirectToUsedLink(request, "invitation");
}

export default function InvitationSetup() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const state = actionData && actionData.state !== "form" ? actionData.state : loaderData.state;

  if (state === "done") return <SetupComplete />;
  if (state === "missing") {
    return (
      <AuthCard title={INVITATION_MESSAGES.missingTitle}>
        <p role="alert" className="text-sm text-slate-700">
          {INVITATION_MESSAGES.missingDescription}
        </p>
        <ErrorLinks />
      </AuthCard>
    );
  }
  if (state === "error") {
    return (
      <AuthCard title={INVITATION_MESSAGES.validateFailed}>
        <p role="alert" className="text-sm text-slate-700">
          Please try again in a moment.
        </p>
        <ErrorLinks />
      </AuthCard>
    );
  }
  if (state === "invalid") {
    return (
      <AuthCard title={INVITATION_MESSAGES.invalid}>
        <p role="alert" className="text-sm text-slate-700">
          This invitation link is invalid, has already been used or has expired. Ask your administrator to send a new invitation.
        </p>
        <ErrorLinks />
      </AuthCard>
    );
  }
  return <SetupForm email={"email" in loaderData ? loaderData.email : ""} lastResult={actionData?.result ?? null} />;
}

function ErrorLinks() {
  return (
    <div className="mt-6 flex gap-2">
      <Link to="/login" className={buttonClass}>
        Go to Login
      </Link>
      <Link to="/" className={secondaryButtonClass}>
        Go to Home
      </Link>
    </div>
  );
}

function SetupForm({ email, lastResult }: { email: string; lastResult: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: invitationSchema }),
  });
  return (
    <AuthCard title="Set up your account" subtitle={email ? `Choose a password for ${email}.` : undefined}>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={form.errors} />
        <TextField label="New Password" field={fields.password} type="password" autoComplete="new-password" />
        <TextField label="Confirm Password" field={fields.confirmPassword} type="password" autoComplete="new-password" />
        <p className="text-xs text-slate-500">At least 8 characters.</p>
        <button type="submit" className={`${buttonClass} w-full`} disabled={busy}>
          {busy ? "Setting up..." : "Complete Setup"}
        </button>
      </Form>
    </AuthCard>
  );
}

/** Spec: a success screen that goes to /login after 3 seconds (the router with JavaScript, a meta refresh without). */
function SetupComplete() {
  return (
    <AuthCard title={INVITATION_MESSAGES.success}>
      <RedirectAfter to="/login" seconds={3} />
      <p role="status" className="text-sm text-slate-700">
        Your password is set. Redirecting you to sign in...
      </p>
      <Link to="/login" className={`${buttonClass} mt-6`}>
        Go to Login
      </Link>
    </AuthCard>
  );
}
