/**
 * A number's dossier as a PDF for people (issue #47): the same facts as the JSON, in words a compliance analyst uses,
 * with the JSON attached inside the PDF (and its SHA-256 printed) so the one file handed over carries what
 * `npm run verify -- --dossier` checks offline. Rendered with pdfkit's standard fonts (no font files to ship).
 */
import crypto from "node:crypto";
import PDFDocument from "pdfkit";
import type { Json } from "../certificate/canonical";
import { isLink } from "./chain";
import type { DossierDecision, NumberDossier } from "./dossier-doc";

type Obj = Record<string, Json>;

const KIND_WORDS: Record<string, string> = {
  lookup: "Live lookup",
  reservation: "Pre-dial reservation",
  opt_out: "Opt-out received",
  opt_out_honoured: "Opt-out honoured",
  exemption_list: "Exemption records changed",
  scrub: "Scrub",
  list_version: "Own list version",
};

const phoneWords = (n: string) => (/^\d{10}$/.test(n) ? `(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}` : n);
const when = (iso: unknown) =>
  typeof iso === "string"
    ? iso
        .replace("T", " ")
        .replace(/\.\d+Z$/, " UTC")
        .replace(/Z$/, " UTC")
    : "—";
const str = (v: unknown) => (v === null || v === undefined || v === "" ? "—" : typeof v === "string" ? v : JSON.stringify(v));

/** One decision in a sentence: what was answered and why. */
export function decisionSentence(d: DossierDecision): string {
  const x = (d.detail ?? {}) as Obj;
  switch (d.kind) {
    case "lookup":
    case "reservation": {
      const listed = x.suppressedBy ? `on ${str(x.suppressedBy)}: do not call` : "on no checked list";
      const now = x.callableNow === true ? "callable at that instant" : x.callableNow === false ? "not callable at that instant" : "";
      const reserved = x.reservationId ? `; attempt ${str(x.reservationId)} reserved` : "";
      const versions = [x.callingRulesVersion ? `calling rules ${str(x.callingRulesVersion)}` : "", x.capsVersion ? `caps ${str(x.capsVersion)}` : ""]
        .filter(Boolean)
        .join(", ");
      return `${[listed, now].filter(Boolean).join(", ")}${reserved}${versions ? ` (${versions})` : ""}.`;
    }
    case "opt_out": {
      const list = ((x.optOuts ?? []) as Obj[]).map((o) => `received ${when(o.receivedAt)} by ${str(o.channel)}`);
      return `Do-not-call request ${list.join("; ")}.`;
    }
    case "opt_out_honoured":
      return `Added to the internal do-not-call list at ${when(x.honouredAt)}.`;
    case "exemption_list":
      return `Exemption list ${str(x.listName ?? x.listId)} changed${x.version !== undefined ? ` (version ${str(x.version)})` : ""}.`;
    default:
      return str(x);
  }
}

/** The dossier as PDF bytes, the JSON `text` attached. */
export function dossierPdf(d: NumberDossier, text: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: "LETTER", margin: 54, info: { Title: `Dossier for ${phoneWords(d.number)}`, Author: "DNC scrub service" } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const sha = crypto.createHash("sha256").update(text).digest("hex");
  doc.file(Buffer.from(text), { name: `dossier-${d.number}.json`, type: "application/json", description: "The machine-readable dossier" });

  const h1 = (t: string) => doc.font("Helvetica-Bold").fontSize(18).text(t).moveDown(0.3);
  const h2 = (t: string) => doc.moveDown(0.8).font("Helvetica-Bold").fontSize(13).text(t).moveDown(0.2);
  const p = (t: string, o: PDFKit.Mixins.TextOptions = {}) => doc.font("Helvetica").fontSize(10).text(t, o);
  const small = (t: string) => doc.font("Helvetica").fontSize(8).fillColor("#475569").text(t).fillColor("black");
  const item = (head: string, body: string) => {
    doc.font("Helvetica-Bold").fontSize(10).text(head, { continued: true }).font("Helvetica").text(`  ${body}`);
  };
  const none = (what: string) => p(`None ${what}.`, { oblique: true });

  h1(`Dossier for ${phoneWords(d.number)}`);
  p(`Window: ${d.from} to ${d.to} (UTC days). Made ${when(d.generatedAt)}.`);
  p(`Ledger ${d.proof.ledger || "—"}: ${d.proof.items.length} entries in the proof, ${d.proof.dayHeads.length} signed day heads.`);
  small(
    `The machine-readable dossier is attached to this PDF (dossier-${d.number}.json, SHA-256 ${sha}). Anyone can check it offline against the service's ` +
      "published keys: npm run verify -- --dossier FILE.json. This page restates it; where they differ, the signed JSON holds.",
  );

  h2("Lists holding the number when the dossier was made");
  const lists = (Array.isArray(d.listsNow) ? d.listsNow : d.listsNow ? [d.listsNow] : []) as Json[];
  if (d.listsNow === null) p("Not asked (the dossier was made from the command line).");
  else if (!lists.length) none("of the checked lists held it");
  else
    for (const l of lists) {
      const o = (l ?? {}) as Obj;
      p(
        `• ${o.kind === "container" ? `Your list "${str(o.name)}"` : `The ${str(o.kind)} list`}${o.version !== undefined ? `, version ${str(o.version)}` : ""}`,
      );
    }

  h2("Answers given about the number");
  if (!d.decisions.length) none("in the window");
  for (const x of d.decisions) item(`${when(x.at)} · ${KIND_WORDS[x.kind] ?? x.kind} (entry ${x.seq})`, decisionSentence(x));

  h2("Scrubs and versions of your own lists in the window");
  small("A scrub is one ledger entry: the number's row is reproducible from the scrub's certificate and result files it names.");
  if (!d.batches.length) none("in the window");
  for (const b of d.batches) {
    const x = (b.detail ?? {}) as Obj;
    item(`${when(b.at)} · ${KIND_WORDS[b.kind] ?? b.kind} (entry ${b.seq})`, str(x.jobId ?? x.listId ?? x.ref ?? ""));
  }

  h2("Calls and texts (call history)");
  if (!d.calls.length) none("recorded in the window");
  for (const c of d.calls)
    item(`${when(c.at)} · ${c.channel}`, `${c.outcome}, subject ${c.subject}${c.debtId ? `, debt ${c.debtId}` : ""}${c.reserved ? " (reserved attempt)" : ""}`);

  h2("Exemption records");
  if (!d.exemptionRecords.length) none("held");
  for (const r of d.exemptionRecords) item(`${r.listName} (version ${r.version})`, `${r.basis} dated ${r.date}`);

  h2("Opt-outs");
  if (!d.optOuts.length) none("received");
  for (const o of d.optOuts)
    item(
      `Received ${when(o.receivedAt)} by ${o.channel}`,
      `${o.honouredAt ? `honoured ${when(o.honouredAt)}` : "not honoured"}. Words: "${o.words}"${o.subject ? ` (subject ${o.subject})` : ""}`,
    );

  h2("Ledger proof");
  const shown = d.proof.items.filter((e) => !isLink(e)).length;
  p(
    `${shown} entries shown whole and ${d.proof.items.length - shown} by their digest only (entries about other numbers: their contents stay ` +
      "private, their place in the chain is proven).",
  );
  if (d.proof.anchor) p(`Anchor: the signed head of ${d.proof.anchor.day}, entry ${d.proof.anchor.seq}, key ${d.proof.anchor.keyId}.`);
  for (const h of d.proof.dayHeads) small(`Day ${h.day}: entry ${h.seq}, hash ${h.hash}, signed ${when(h.signedAt)} with key ${h.keyId}.`);
  doc.end();
  return done;
}
