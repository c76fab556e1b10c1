import { getFormProps, useForm } from "@conform-to/react";
import { echoCapped } from "~/utils/echo-cap";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { authenticateLogin, getOptionalUser, LoginError, startUserSession } from "~/accounts/auth.server";
import { safeRedirectPath } from "~/utils/safe-redirect-path";
import { AuthCard, AuthCardFooter } from "~/components/auth-card";
import { buttonClass, FormErrors, TextField } from "~/components/ui/form";

export const meta: MetaFunction = () => [{ title: "Sign in · Data Purging Tool" }];

const schema = z.object({
  email: z.string({ error: "Email is required" }).trim().min(1, "Email is required"),
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  redirectTo: z.string().optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) throw redirect(safeRedirectPath(new URL(request.url).searchParams.get("redirectTo")));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.clone().formData();
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data(echoCapped(submission.reply()), { status: 400 });
  try {
    const user = await authenticateLogin(request, context);
    const cookie = await startUserSession(request, user.id, {
      kind: "success",
      title: "Login Successful",
      description: "Welcome back!",
    });
    return redirect(safeRedirectPath(submission.value.redirectTo), { headers: { "Set-Cookie": cookie } });
  } catch (e) {
    if (e instanceof LoginError) {
      return data(echoCapped(submission.reply({ formErrors: [e.message], hideFields: ["password"] })), { status: 401 });
    }
    console.error(e);
    return data(echoCapped(submission.reply({ formErrors: ["An unexpected error occurred. Please try again."] })), { status: 500 });
  }
}

export default function Login() {
  const lastResult = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const failed = form.errors?.length ? form.errors : undefined;
  return (
    <AuthCard title="Sign in" subtitle="Sign in to your account">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {failed && (
          <div data-testid="login-failed">
            <p className="mb-1 text-sm font-semibold text-red-700">Login Failed</p>
            <FormErrors errors={failed} />
          </div>
        )}
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/dashboard"} />
        <TextField label="Email" field={fields.email} type="email" autoComplete="email" />
        <TextField label="Password" field={fields.password} type="password" autoComplete="current-password" />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm text-blue-600 hover:underline">
            Forgot password?
          </Link>
        </div>
        <button type="submit" className={`${buttonClass} w-full`} disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Signing in..." : "Sign In"}
        </button>
      </Form>
      <AuthCardFooter question="Don't have an account?" linkText="Sign up" to="/signup" />
    </AuthCard>
  );
}
