import crypto from "node:crypto";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useLoaderData, useActionData, useFetcher, useRevalidator } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { requireUser } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { getScrubService, US_STATES } from "~/utils/scrub.server";
import { getUpload, readUploadHead, saveManualUpload, uploadLimitMessage } from "~/utils/uploads.server";
import {
  handleCsvUpload,
  parseUploadForm,
  precheckCsv,
  PurgeInputError,
  readCsvSummary,
  startPurge,
  sweepOldUploads,
  type CsvSummary,
} from "~/utils/purge-start.server";
import { CSV_MESSAGES, manualSchema, parseWizardState, wizardHref, type WizardState } from "~/utils/purge-wizard";
import {
  getCategoryOption,
  getContainerOption,
  getJobForViewer,
  jobView,
  type JobView,
  listCategoryOptions,
  listContainerOptions,
  stateFilterAllowed,
} from "~/models/purge.server";
import { getPlanGate } from "~/models/plan-gate.server";
import { ActiveJobsLimitError, getPlanState, isUsageError, NoPlanError } from "~/models/usage.server";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { NoPlanGate } from "~/components/pricing";
import { PurgeWizard, type PurgeActionData } from "~/components/purge/wizard";

export const meta: MetaFunction = () => [{ title: "Purge Your Data · Data Purging Tool" }];

/** How often the browser polls a running job (JavaScript on); without JavaScript the page refreshes every 2 s. */
const POLL_MS = 1000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const url = new URL(request.url);
  const gate = await getPlanGate(db, user.id, url.pathname + url.search);
  if (gate) return { gate, wizard: null };

  const state = parseWizardState(url.searchParams);
  const maxUploadBytes = env().MAX_UPLOAD_BYTES;
  const planState = await getPlanState(db, user.id);
  const canFilterStates = await stateFilterAllowed(db, planState);

  const [category, container, upload] = await Promise.all([
    state.category ? getCategoryOption(db, user.id, state.category) : undefined,
    state.container ? getContainerOption(db, user.id, state.container) : undefined,
    state.upload ? getUpload(user.id, state.upload) : undefined,
  ]);
  // Choices that are not (or no longer) the user's are dropped, never shown.
  const clean: WizardState = {
    ...state,
    category: category?.id ?? "",
    container: container?.id ?? "",
    upload: upload?.id ?? "",
    states: canFilterStates ? state.states.filter((s) => US_STATES.some((u) => u.code === s)) : [],
  };

  if (clean.step === 5 && (clean.mode !== "csv" || !upload)) throw redirect(wizardHref(clean, { step: 4, job: "" }));
  if (clean.step === 6 && !clean.job) throw redirect(wizardHref(clean, { step: clean.mode === "manual" ? 4 : 5 }));

  let categories: { id: string; name: string }[] = [];
  let containers: { id: string; name: string; size: number; categoryId: string | null }[] = [];
  if (clean.step === 2) categories = await listCategoryOptions(db, user.id);
  if (clean.step === 3) {
    containers = await listContainerOptions(db, user.id);
    categories = await listCategoryOptions(db, user.id);
  }

  let preview: CsvSummary | null = null;
  let previewError: string | null = null;
  if (clean.step === 5 && upload) {
    try {
      preview = await readCsvSummary(await getScrubService(), upload);
    } catch (e) {
      if (!(e instanceof PurgeInputError)) throw e;
      previewError = e.message;
    }
  }

  let manualText: string | null = null;
  if (clean.step === 4 && clean.mode === "manual" && upload?.manual) {
    const text = await readUploadHead(upload);
    manualText = text ? text.replace(/^Number\n/, "").trimEnd() : null;
  }

  let job = null;
  if (clean.step === 6) {
    job = jobView(await getJobForViewer(db, user, clean.job));
    if (!job) throw new Response("Not found", { status: 404 });
  }

  return {
    gate: null,
    wizard: {
      state: clean,
      maxUploadBytes,
      limitMessage: uploadLimitMessage(maxUploadBytes),
      canFilterStates,
      usStates: canFilterStates ? US_STATES.map((s) => ({ code: s.code, name: s.name })) : [],
      categoryName: category?.name ?? null,
      containerName: container?.name ?? null,
      categories,
      containers,
      upload: upload ? { id: upload.id, name: upload.originalName, bytes: upload.bytes, manual: upload.manual } : null,
      manualText,
      /** Identifies this rendering of the manual form, so a resent form does not start a second purge. */
      submissionId: clean.step === 4 && clean.mode === "manual" ? crypto.randomBytes(16).toString("hex") : "",
      preview,
      previewError,
      job,
    },
  };
}

function fail(intent: string, message: string, status = 400, title = "Validation Error") {
  return data<PurgeActionData>({ intent, error: { title, message } }, { status });
}

function usageFailure(intent: string, e: Error) {
  const title = e instanceof NoPlanError ? "Subscription Required" : e instanceof ActiveJobsLimitError ? "Purges In Progress" : "Usage Limit Reached";
  return fail(intent, e.message, 402, title);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const planState = await getPlanState(db, user.id);
  if (!planState.hasAccess) return usageFailure("", new NoPlanError("suppression"));

  let formData: FormData;
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const parsed = await parseUploadForm(request, user.id);
    if (!("formData" in parsed)) return fail("upload", parsed.message, parsed.status);
    formData = parsed.formData;
  } else {
    try {
      formData = await request.formData();
    } catch {
      return fail("", "The form could not be read. Please try again.");
    }
  }
  const intent = String(formData.get("intent") ?? "");
  const state = parseWizardState(formData);
  const canFilterStates = await stateFilterAllowed(db, planState);

  if (intent === "upload") {
    const outcome = await handleCsvUpload(user.id, formData);
    return outcome.ok ? redirect(outcome.redirectTo) : fail(intent, outcome.message, outcome.status);
  }

  if (intent === "manual") {
    const submission = parseWithZod(formData, { schema: manualSchema });
    if (submission.status !== "success") {
      const message = submission.error?.numbers?.[0] ?? "Please enter phone numbers";
      return data<PurgeActionData>({ intent, reply: submission.reply(), error: { title: "Validation Error", message } }, { status: 400 });
    }
    const numbers = submission.value.numbers
      .trim()
      .split(/[\n,]+/)
      .map((e) => e.replace(/\D/g, ""))
      .filter(Boolean);
    await sweepOldUploads(user.id);
    const submissionId = formData.get("submission");
    const upload = await saveManualUpload(user.id, numbers, { id: typeof submissionId === "string" ? submissionId : undefined });
    return start(intent, { state: { ...state, mode: "manual" }, upload, column: "Number" });
  }

  if (intent === "start") {
    const upload = await getUpload(user.id, state.upload);
    if (!upload) return fail(intent, CSV_MESSAGES.noFile);
    const column = String(formData.get("column") ?? "").trim();
    try {
      await precheckCsv(await getScrubService(), upload, column);
    } catch (e) {
      if (e instanceof PurgeInputError) return fail(intent, e.message);
      throw e;
    }
    return start(intent, { state: { ...state, mode: "csv", column }, upload, column });
  }

  return fail(intent, "Unknown action.");

  async function start(intent: string, args: { state: WizardState; upload: NonNullable<Awaited<ReturnType<typeof getUpload>>>; column: string }) {
    try {
      const jobId = await startPurge(db, await getScrubService(), {
        user,
        upload: args.upload,
        suppressionType: args.state.type,
        column: args.column,
        categoryId: args.state.category,
        containerId: args.state.container,
        states: args.state.states,
        stateFilterAllowed: canFilterStates,
      });
      return redirect(wizardHref(args.state, { step: 6, upload: args.upload.id, job: jobId }));
    } catch (e) {
      if (e instanceof PurgeInputError) return fail(intent, e.message);
      if (isUsageError(e)) return usageFailure(intent, e);
      console.warn(`[purge] start failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return fail(intent, "Failed to process purge.", 500, "Purge Failed");
    }
  }
}

export default function Purge() {
  const { gate, wizard } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as PurgeActionData | undefined;
  const revalidator = useRevalidator();
  const progress = useFetcher<JobView>();
  const loaded = wizard?.job ?? null;
  const running = loaded && (loaded.status === "queued" || loaded.status === "running");
  // While the job runs, poll its small JSON progress; once it has finished, reload the page data (results).
  const polled = running && progress.data?.id === loaded.id ? progress.data : null;
  const finished = polled && (polled.status === "completed" || polled.status === "failed");

  useEffect(() => {
    if (!running || finished) return;
    const t = setInterval(() => {
      if (progress.state === "idle") progress.load(`/purge/jobs/${loaded.id}`);
    }, POLL_MS);
    return () => clearInterval(t);
  }, [running, finished, loaded?.id, progress]);

  useEffect(() => {
    if (finished && revalidator.state === "idle") revalidator.revalidate();
  }, [finished, revalidator]);

  if (gate) {
    return (
      <>
        <PageHeader title="Purge Your Data" />
        <NoPlanGate gate={gate} />
      </>
    );
  }
  if (!wizard) return null;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Purge Your Data" subtitle="Remove litigators, do-not-call numbers and duplicates from your phone lists." />
      <PurgeWizard wizard={polled && !finished ? { ...wizard, job: polled } : wizard} actionData={actionData} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
