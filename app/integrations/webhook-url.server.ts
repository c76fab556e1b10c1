import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { webhookTargetsMayBePrivate } from "~/utils/env.server";

/*
 * Where webhooks may go. Only http(s). In production every address the server would connect to must be a
 * public unicast address: the server must not become a proxy into its own network. Addresses are parsed and
 * classified by ipaddr.js, never matched as text, so every spelling of one address gets one answer
 * (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`, `[::ffff:7f00:1]`, `[64:ff9b::7f00:1]` are all loopback).
 * The check runs when the URL is saved and again at delivery: a literal address before connecting, a host
 * name on every DNS answer inside the socket's own lookup (so the address checked is the address connected
 * to, DNS rebinding included). Redirects are never followed. Outside production private targets are
 * allowed so tests and local receivers work. See docs/decisions/052-webhooks.md and 115.
 */

export const PUBLIC_ADDRESS_MESSAGE = "Webhook URL must be a public address";

export function allowPrivateTargets(): boolean {
  return webhookTargetsMayBePrivate();
}

/** IPv6 ranges that carry an IPv4 address in their low 32 bits (or, for 6to4, in bits 16–47). */
function embeddedIPv4(v6: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const b = v6.toByteArray();
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (range === "rfc6052" || range === "rfc6145") return new ipaddr.IPv4(b.slice(12, 16));
  if (range === "6to4") return new ipaddr.IPv4(b.slice(2, 6));
  // IPv4-compatible (::a.b.c.d, deprecated): the first 96 bits are zero.
  if (b.slice(0, 12).every((x) => x === 0)) return new ipaddr.IPv4(b.slice(12, 16));
  return null;
}

/**
 * Why an address is not a public unicast address ("loopback", "private", "linkLocal", "uniqueLocal",
 * "multicast", "carrierGradeNat", "reserved", "teredo", …), or null when it is public.
 * Anything that does not parse as an address is refused too.
 */
export function nonPublicRange(address: string): string | null {
  const text = address.replace(/^\[|\]$/g, "");
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(text.replace(/%.*$/, "")); // a zone id (fe80::1%eth0) is link-local anyway
  } catch {
    return "invalid";
  }
  if (text.includes("%")) return "scoped";
  if (parsed.kind() === "ipv4") {
    const range = parsed.range();
    return range === "unicast" ? null : range;
  }
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const inner = embeddedIPv4(v6, range);
  if (inner) {
    const innerRange = nonPublicRange(inner.toString());
    return innerRange ? `${range}:${innerRange}` : null;
  }
  // Teredo hides the client's IPv4 (obfuscated) and names a relay: never a webhook receiver.
  return range === "unicast" ? null : range;
}

export function isPrivateAddress(address: string): boolean {
  return nonPublicRange(address) !== null;
}

/** Host names that name this machine or its private network whatever DNS says. */
function isInternalName(host: string): boolean {
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".internal") ||
    host.endsWith(".local") ||
    host.endsWith(".home.arpa") ||
    !host.includes(".") // single-label names resolve through the server's search domains
  );
}

/** The reason a webhook URL is refused, or null when it may be saved (and sent to, for literal addresses). */
export function webhookUrlProblem(value: string, { allowPrivate = allowPrivateTargets() } = {}): string | null {
  if (value.length > 2000) return "Webhook URL is too long";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Enter a valid URL starting with https:// or http://";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Webhook URL must start with https:// or http://";
  if (url.username || url.password) return "Webhook URL must not contain a user name or password";
  if (allowPrivate) return null;
  // The URL parser has already turned every IPv4 spelling into dotted decimal and bracketed IPv6 into
  // its canonical form; a trailing dot names the same host.
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
  if (net.isIP(host)) return isPrivateAddress(host) ? PUBLIC_ADDRESS_MESSAGE : null;
  if (isInternalName(host)) return PUBLIC_ADDRESS_MESSAGE;
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;

/**
 * A dns.lookup replacement for the webhook request: every answer must be public (in production), else
 * the connection is refused with the same words as a refused literal address; no internal address or
 * DNS detail reaches the delivery log.
 */
export function guardedLookupWith(resolve: typeof dns.lookup = dns.lookup, allowPrivate: () => boolean = allowPrivateTargets): typeof dns.lookup {
  return ((hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback) => {
    const cb = (typeof options === "function" ? options : callback) as LookupCallback;
    const opts = (typeof options === "object" ? options : typeof options === "number" ? { family: options } : {}) as dns.LookupOptions;
    resolve(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return cb(err);
      const list = addresses as unknown as dns.LookupAddress[];
      if (!allowPrivate() && (list.length === 0 || list.some((a) => isPrivateAddress(a.address)))) {
        return cb(Object.assign(new Error(PUBLIC_ADDRESS_MESSAGE), { code: "EPRIVATE" }));
      }
      if (opts.all) return cb(null, list);
      const first = list[0];
      if (!first) return cb(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }));
      cb(null, first.address, first.family);
    });
  }) as unknown as typeof dns.lookup;
}

export const guardedLookup = guardedLookupWith();
