import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the current response, for the inline scripts that React
 * Router writes. Set by entry.server; in the browser it is empty, which is what React expects
 * when hydrating (browsers hide nonce attributes from the DOM).
 */
const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
