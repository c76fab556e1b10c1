/* What the purge wizard's steps are given: the loader's wizard data and the action's reply. */
import type { SubmissionResult } from "@conform-to/react";
import type { WizardState } from "~/intake/purge-wizard";
import type { JobView } from "~/models/purge.server";

export interface PurgeActionData {
  intent: string;
  error?: { title: string; message: string; /** The form field the error belongs to ("at"). */ field?: "at" };
  reply?: SubmissionResult<string[]>;
}

export interface WizardData {
  state: WizardState;
  maxUploadBytes: number;
  limitMessage: string;
  canFilterStates: boolean;
  usStates: { code: string; name: string }[];
  categoryName: string | null;
  containerName: string | null;
  exemptionListName: string | null;
  categories: { id: string; name: string }[];
  containers: { id: string; name: string; size: number; categoryId: string | null }[];
  exemptionLists: { id: string; name: string; size: number }[];
  upload: { id: string; name: string; bytes: number; manual: boolean } | null;
  manualText: string | null;
  submissionId: string;
  preview: {
    headers: string[];
    hasHeader: boolean;
    rows: string[][];
    phoneColumn: string | null;
    input: { format: string; encoding: string; delimiter: string; sheets: string[]; sheet: string | null } | null;
  } | null;
  previewError: string | null;
  job: JobView | null;
}
