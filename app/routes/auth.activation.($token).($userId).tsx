import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AuthCard } from "~/components/auth-card";
import { RedirectAfter } from "~/components/ui/redirect-after";
import { AuthStatus, PrimaryLink, SecondaryLink } from "~/components/auth-status";
import { buttonClass } from "~/components/ui/form";
import { useHydrated } from "~/components/account-fields";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { confirmEmail } from "~/models/account.server";
import { looksLikeTokenLink, validateToken } from "~/models/auth-token.server";
import { justUsedLink, redirectToUsedLink } from "~/accounts/link-done.server";

export const meta: MetaFunction = () => [{ title: "Confirm your email · Data Purging Tool" }, { name: "robots", content: "noindex" }];

/** The link's token must not leak to other sites through the Referer header, nor into a shared cache. (Not "no-referrer": that sends "Origin: null" with the form post, which the same-origin check refuses.) */
export const headers: HeadersFunction = () => ({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });

export const ACTIVATION_MESSAGES = {
  confirmed: "Email confirmed successfully",
  failed: "Email confirmation failed. Please try again or contact support.",
  error: "An error occurred while confirming your email. Please try again or contact support.",
} as const;

/** Redirect to sign-in after a confirmation (spec: 2 seconds). */
export const REDIRECT_SECONDS = 2;

type State = "ready" | "confirmed" | "failed" | "error";

/*
 * GET only looks at the link (mail scanners that prefetch links must not confirm accounts); the
 * confirmation is a POST. With JavaScript the page posts by itself and shows the loading state;
 * without, the visitor presses Confirm Email.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { token, userId } = params;
  if (!looksLikeTokenLink(token, userId)) return data({ state: "failed" as State }, { status: 400 });
  const valid = await validateToken(await getDb(), { token, userId, kind: "activation" });
  if (valid) return data({ state: "ready" as State });
  const used = justUsedLink(request, "activation");
  if (used) return data({ state: "confirmed" as State }, { headers: { "Set-Cookie": used.clear } });
  return data({ state: "failed" as State }, { status: 400 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  try {
    const ok = await confirmEmail(await getDb(), { token: params.token, userId: params.userId });
    if (!ok) return data({ state: "failed" as State }, { status: 400 });
    const toast = await flashToast(request, { kind: "success", title: "Email Confirmed", description: ACTIVATION_MESSAGES.confirmed });
    return redirectToUsedLink(request, "activation", [["Set-Cookie", toast]]);
  } catch (e) {
    console.error(e);
    return data({ state: "error" as State }, { status: 500 });
  }
}

export default function Activation() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const state: State = actionData?.state ?? loaderData.state;
  return (
    <AuthCard title="Email confirmation">
      {state === "ready" && <Confirm />}
      {state === "confirmed" && <Confirmed />}
      {(state === "failed" || state === "error") && (
        <AuthStatus
          tone="error"
          title="Email Confirmation Failed"
          message={state === "failed" ? ACTIVATION_MESSAGES.failed : ACTIVATION_MESSAGES.error}
          testId="activation-error"
        >
          <PrimaryLink to="/login">Go to Login</PrimaryLink>
          <SecondaryLink to="/">Go to Home</SecondaryLink>
        </AuthStatus>
      )}
    </AuthCard>
  );
}

function Confirm() {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (hydrated && !sent.current && formRef.current) {
      sent.current = true;
      submit(formRef.current);
    }
  }, [hydrated, submit]);
  const busy = hydrated || navigation.state !== "idle";
  return (
    <Form method="post" ref={formRef}>
      {busy ? (
        <AuthStatus tone="busy" title="Confirming your email..." message="This takes only a moment." testId="activation-loading" />
      ) : (
        <AuthStatus tone="info" title="Confirm your email" message="Press the button to confirm your e-mail address and activate your account.">
          <button type="submit" className={buttonClass}>
            Confirm Email
          </button>
        </AuthStatus>
      )}
    </Form>
  );
}

function Confirmed() {
  return (
    <AuthStatus
      tone="success"
      title="Email Confirmed"
      message={
        <>
          <p>{ACTIVATION_MESSAGES.confirmed}</p>
          <p className="mt-1">Redirecting you to sign in...</p>
        </>
      }
      testId="activation-success"
    >
      <RedirectAfter to="/login" seconds={REDIRECT_SECONDS} />
      <PrimaryLink to="/login">Go to Login</PrimaryLink>
    </AuthStatus>
  );
}
