import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Set by server.mjs from the socket (or the trusted proxy), never from a client header. */
    clientIp: string;
    requestId: string;
    /** Per-request nonce allowed by the Content-Security-Policy for inline scripts. */
    cspNonce?: string;
  }
}

declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}
