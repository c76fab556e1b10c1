/**
 * Issues a job's certificate at the one place a job completes (the runner's completion transaction), from
 * what the scrub itself measured: the input's and outputs' SHA-256 hashed while read and written, the row
 * counts, and the list versions the scrub's snapshots were taken at.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "db/schema";
import { NORMALIZER_RULES_VERSION } from "../numbers/normalize";
import type { ScrubResult } from "../pipeline/run";
import type { ListKind } from "../list-types";
import {
  ageInDays,
  CERTIFICATE_FORMAT,
  REGISTRY_VALID_DAYS,
  validUntil,
  type ExemptionProof,
  type ListVersionProof,
  type OutputKind,
  type OutputProof,
  type ScrubCertificate,
} from "./document";
import { certificateText, signCertificate, type SigningKey } from "./sign";

type Db = Kysely<Database> | Transaction<Database>;

export interface ListUsed {
  kind: ListKind;
  listId: number;
  version: number;
  size: number;
}

export interface IssueInput {
  job: {
    id: string;
    user_id: string;
    file_name: string;
    suppression_type: "LitigationOnly" | "DNCAndLitigation";
    states: string[] | null;
    started_at: Date | null;
  };
  result: Pick<ScrubResult, "rowsDone" | "good" | "bad" | "invalid" | "reasons" | "files" | "inputSha256" | "inputBytes"> &
    Partial<Pick<ScrubResult, "calling">>;
  /** The download names of the result files, by kind. */
  fileNames: Record<OutputKind, string>;
  lists: ListUsed[];
  /** The exemption list the scrub applied (decision 161). */
  exemptions?: ExemptionProof | null;
  /** The evaluation instant's standing (decision 174), when one was asked for. */
  evaluation?: ScrubCertificate["evaluation"] | null;
  /** The lists past their freshness rule the scrub ran with (decision 174). */
  staleLists?: ScrubCertificate["staleLists"] | null;
  now: Date;
  key: SigningKey;
}

export interface Issued {
  text: string;
  certificate: ScrubCertificate;
  validUntil: Date | null;
  dncAgeDays: number | null;
}

/** The load that produced (or last shaped) this version of the list, with the list's name and registry date. */
async function listVersionProof(db: Db, used: ListUsed): Promise<ListVersionProof> {
  const list = await db.selectFrom("lists").select(["name", "registry_date"]).where("id", "=", used.listId).executeTakeFirstOrThrow();
  const load = await db
    .selectFrom("list_loads")
    .select(["id", "finished_at", "registry_date", "file_name", "source_sha256"])
    .where("list_id", "=", used.listId)
    .where("status", "=", "completed")
    .where((eb) => eb.or([eb("list_version", "<=", BigInt(used.version)), eb("list_version", "is", null)]))
    .orderBy("list_version", (ob) => ob.desc().nullsLast())
    .orderBy("finished_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const registry = load ? (load.registry_date ?? load.finished_at) : list.registry_date;
  return {
    kind: used.kind,
    listId: used.listId,
    name: list.name,
    version: used.version,
    count: used.size,
    loadId: load?.id ?? null,
    loadedAt: load?.finished_at?.toISOString() ?? null,
    registryDate: registry ? registry.toISOString() : null,
    sourceFileName: load?.file_name ?? null,
    sourceSha256: load?.source_sha256 ?? null,
  };
}

export async function issueCertificate(db: Db, input: IssueInput): Promise<Issued> {
  const { job, result, now } = input;
  const owner = await db
    .selectFrom("users")
    .select(["id", "first_name", "last_name", "email", "company"])
    .where("id", "=", job.user_id)
    .executeTakeFirstOrThrow();
  const lists: ListVersionProof[] = [];
  for (const used of input.lists) lists.push(await listVersionProof(db, used));
  const outputs = {} as Record<OutputKind, OutputProof>;
  for (const f of result.files) outputs[f.kind] = { fileName: input.fileNames[f.kind], sha256: f.sha256, records: f.records, bytes: f.bytes };

  let dncRegistry: ScrubCertificate["dncRegistry"] = null;
  const dnc = lists.find((l) => l.kind === "dnc");
  if (job.suppression_type === "DNCAndLitigation" && dnc?.registryDate) {
    const registryDate = new Date(dnc.registryDate);
    const ageDays = ageInDays(registryDate, now);
    dncRegistry = {
      registryDate: dnc.registryDate,
      ageDays,
      validUntil: validUntil(registryDate).toISOString(),
      withinWindow: ageDays <= REGISTRY_VALID_DAYS,
    };
  }
  const certificate: ScrubCertificate = {
    format: CERTIFICATE_FORMAT,
    jobId: job.id,
    issuedAt: now.toISOString(),
    owner: {
      userId: owner.id,
      name: `${owner.first_name} ${owner.last_name}`.trim(),
      email: owner.email,
      company: owner.company,
    },
    startedAt: job.started_at ? new Date(job.started_at).toISOString() : null,
    completedAt: now.toISOString(),
    input: { fileName: job.file_name, sha256: result.inputSha256, bytes: result.inputBytes },
    suppressionType: job.suppression_type,
    stateFilter: job.states && job.states.length ? [...job.states] : null,
    counts: { total: result.rowsDone, good: result.good, bad: result.bad, invalid: result.invalid, byReason: { ...result.reasons } },
    lists,
    normalizerRulesVersion: NORMALIZER_RULES_VERSION,
    outputs,
    dncRegistry,
    ...(result.calling
      ? {
          callingWindow: {
            at: result.calling.at,
            rulesVersion: result.calling.rulesVersion,
            timeZoneSource: result.calling.timeZoneSource,
            // the emergency no-call periods the evaluation applied (decision 181), signed with the rest
            ...(result.calling.emergencyPeriods?.length ? { emergencyPeriods: result.calling.emergencyPeriods } : {}),
            // the call history the caps were counted on (decision 191): its records, SHA-256 and CAPS_VERSION, signed too
            ...(result.calling.calls ? { calls: result.calling.calls } : {}),
          },
        }
      : {}),
    ...(input.exemptions ? { exemptions: input.exemptions } : {}),
    ...(input.evaluation ? { evaluation: input.evaluation } : {}),
    ...(input.staleLists && input.staleLists.length ? { staleLists: input.staleLists } : {}),
  };
  const text = certificateText(signCertificate(certificate, input.key));
  return {
    text,
    certificate,
    validUntil: dncRegistry ? new Date(dncRegistry.validUntil) : null,
    dncAgeDays: dncRegistry?.ageDays ?? null,
  };
}
