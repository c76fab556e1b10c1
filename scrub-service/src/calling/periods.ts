/** Emergency no-call periods as the calling evaluation takes them (decision 181): data only, shared by the class table and the rules. */

export interface EmergencyPeriod {
  id: number;
  /** Two-letter US state codes. */
  states: string[];
  /** Only these area codes of those states (null: the whole states). */
  areaCodes: number[] | null;
  /** YYYY-MM-DD, the number's local day, both included. */
  firstDay: string;
  lastDay: string;
  /** Who declared the emergency ("" when the operator did not say). */
  authority: string;
  sourceUrl: string;
}

/** A period as it applies to one calling class: the place named in the note is the class's state. */
export interface AppliedPeriod {
  period: EmergencyPeriod;
  /** "Louisiana". */
  place: string;
}
