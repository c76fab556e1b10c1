/**
 * The public rules page (/rules, decision 178) at a version's entry in its list of changes: where the results
 * screen, the certificate and the API send a reader of CALLING_RULES_VERSION.
 */
export const RULES_PATH = "/rules";

export function rulesHref(version?: string | null): string {
  return version ? `${RULES_PATH}#rules-${version}` : RULES_PATH;
}
