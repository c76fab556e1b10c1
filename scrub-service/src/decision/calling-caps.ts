/**
 * A number's calling answer with its call history (issue #46, decisions 187 and 191): the one piece the live lookup
 * and the batch scrub both ask, so that a number over a frequency cap reads the same in good.csv and in the lookup's
 * answer. The caps of the purpose at the instant (`evaluateCaps`); when one holds, the one decision's
 * `callingWithCaps` over the number's calling class (not callable now, next at the cap's lift moved to a lawful hour,
 * the note naming the cap first). Pure CPU.
 */
import { evaluateCaps, type CapFacts, type CapVerdict } from "../calling/caps";
import type { CallingClass } from "../calling/exchanges";
import { evaluateClass } from "../calling/note";
import { callingWithCaps, type DecisionCalling } from "./decide";

/** A calling class's answer at an instant (ms), as the decision reads it. */
export function classCalling(cls: CallingClass, ms: number): DecisionCalling {
  const v = evaluateClass(cls, ms);
  return { zones: cls.zones, callableNow: v.answer.callableNow, nextCallAt: v.answer.nextCallAt, note: v.note, nextCallLocal: v.nextCallLocal };
}

/**
 * The number's calling answer at `atMs` (whole seconds) when a cap of its purpose holds the next call, with the caps'
 * verdict; null when none holds (the class's own answer stands, as the scrub and the lookup already have it).
 */
export function cappedCalling(cls: CallingClass, atMs: number, facts: Omit<CapFacts, "atMs">): { verdict: CapVerdict; calling: DecisionCalling } | null {
  if (facts.records.length === 0) return null;
  const verdict = evaluateCaps({ ...facts, atMs });
  if (verdict.liftAt === null) return null;
  const callingAt = (ms: number) => classCalling(cls, ms);
  return { verdict, calling: callingWithCaps(callingAt(atMs), verdict, callingAt) };
}
