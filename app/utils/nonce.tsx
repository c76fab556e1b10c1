import { createContext, useContext } from "react";

/** The per-request CSP nonce (server render only; browsers hide it from the DOM afterwards). */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
