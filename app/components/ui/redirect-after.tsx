import { useNavigate } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Moves on to `to` after `seconds`, by exactly one mechanism: with JavaScript the router navigates; without it
 * a meta refresh does. The meta refresh sits in <noscript>, which a browser running scripts never parses into
 * elements and React never renders on the client, so the two cannot race (a client-side visit to the page does
 * not insert a live refresh either).
 */
export function RedirectAfter({ to, seconds }: { to: string; seconds: number }) {
  const navigate = useNavigate();
  useEffect(() => {
    const t = setTimeout(() => navigate(to), seconds * 1000);
    return () => clearTimeout(t);
  }, [navigate, to, seconds]);
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${seconds};url=${to}`} />
    </noscript>
  );
}
