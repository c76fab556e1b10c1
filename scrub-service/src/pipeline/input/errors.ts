import { CodedError } from "../../errors";

/**
 * An input file the decoders understood well enough to say precisely what is wrong with it (a zip bomb, a
 * password-protected workbook, a zip holding several files). `message` is fit to show to the customer as is.
 */
export class InputFormatError extends CodedError {
  constructor(message: string) {
    super("invalid_input", message);
    this.name = "InputFormatError";
  }
}

/** Whether an error carries a message written for the customer (also across bundles, hence the name check). */
export function isInputFormatError(e: unknown): e is InputFormatError {
  return e instanceof Error && e.name === "InputFormatError";
}

/** Errors of the readers whose message is written for the customer (by name: they may cross bundles). */
const SHOWN_READ_ERRORS = new Set(["InputFormatError", "NotTextFileError"]);

/** The customer's sentence for a reader's error (a refused archive, a binary file, an open quote), or null. */
export function readErrorMessage(e: unknown): string | null {
  return e instanceof Error && SHOWN_READ_ERRORS.has(e.name) ? e.message : null;
}

export function sizeText(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

/**
 * A reader's low-level failure as the customer's message: a size check that failed inside a zip member means a
 * lying header (a zip bomb); anything else from the decoders means a damaged file. System errors (disk full,
 * missing file) stay as they are: they are not the file's fault.
 */
export function explainReadError(what: string) {
  return (e: unknown): Error => {
    if (isInputFormatError(e)) return e;
    if (typeof (e as NodeJS.ErrnoException).syscall === "string") return e as Error;
    const msg = e instanceof Error ? e.message : String(e);
    if (/too many bytes in the stream|not enough bytes in the stream/i.test(msg)) {
      return new InputFormatError(`The ${what} was refused: a member unpacks to more bytes than the archive says (a zip bomb?).`);
    }
    return new InputFormatError(`The ${what} is damaged and could not be read to the end (${reasonText(e)}).`);
  };
}

/** A library's error text as a clause: its first sentence, lower-cased start, no final period. */
export function reasonText(e: unknown): string {
  const first = (e instanceof Error ? e.message : String(e)).split("\n")[0].split(/\.(\s|$)/)[0];
  return first.charAt(0).toLowerCase() + first.slice(1);
}
