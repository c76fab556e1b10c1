/** Where an exchange's entry is in the per-exchange tables: (NPA - 200)·800 + (NXX - 200); 640,000 entries. */
export const EXCHANGE_ENTRIES = 800 * 800;

export const exchangeIndex = (npa: number, nxx: number): number => (npa - 200) * 800 + (nxx - 200);

/** The calling class of a valid 10-digit number from a class-per-exchange table (0 = no time zone). */
export function callingClassOf(table: Uint16Array, n: number): number {
  const npa = Math.floor(n / 10_000_000);
  const nxx = Math.floor(n / 10_000) % 1000;
  return npa < 200 || nxx < 200 ? 0 : table[exchangeIndex(npa, nxx)];
}
