import dns from "node:dns";
import net from "node:net";

/*
 * Where webhooks may go. Only http(s). In production, targets on loopback, private, link-local,
 * carrier-grade NAT, multicast or unspecified addresses are refused (the server must not become a proxy
 * into its own network); outside production loopback is allowed so tests and local receivers work.
 * The check runs when the URL is saved (literal addresses, "localhost") and again at delivery time on the
 * resolved address (DNS rebinding). See docs/decisions/052-webhooks.md.
 */

export function allowPrivateTargets(): boolean {
  // Read at run time through a variable: the server bundle replaces the literal `process.env.NODE_ENV`
  // with the build's mode, but the decision belongs to how the process was started.
  const runtime: Record<string, string | undefined> = process.env;
  if (runtime.WEBHOOK_ALLOW_PRIVATE === "1") return true;
  return runtime.NODE_ENV !== "production";
}

function ipv4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
}

function inV4(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/");
  const mask = Number(bits) === 0 ? 0 : (~0 << (32 - Number(bits))) >>> 0;
  return (ipv4ToInt(ip) & mask) === (ipv4ToInt(base) & mask);
}

const privateV4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "224.0.0.0/4",
  "240.0.0.0/4",
];

/** True when the address is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) return privateV4.some((c) => inV4(address, c));
  if (net.isIPv6(address)) {
    const a = address.toLowerCase();
    const mapped = a.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped) return isPrivateAddress(mapped[1]);
    return (
      a === "::" ||
      a === "::1" ||
      a.startsWith("fc") ||
      a.startsWith("fd") ||
      a.startsWith("fe8") ||
      a.startsWith("fe9") ||
      a.startsWith("fea") ||
      a.startsWith("feb") ||
      a.startsWith("ff")
    );
  }
  return true;
}

/** The reason a webhook URL is refused, or null when it may be saved. */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Enter a valid URL starting with https:// or http://";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Webhook URL must start with https:// or http://";
  if (url.username || url.password) return "Webhook URL must not contain a user name or password";
  if (value.length > 2000) return "Webhook URL is too long";
  if (!allowPrivateTargets()) {
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local")) {
      return "Webhook URL must be a public address";
    }
    if (net.isIP(host) && isPrivateAddress(host)) return "Webhook URL must be a public address";
  }
  return null;
}

/**
 * A dns.lookup replacement for http(s).request that refuses private addresses in production, so the
 * address actually connected to is the one checked.
 */
export const guardedLookup: typeof dns.lookup = ((
  hostname: string,
  options: dns.LookupOptions | number | ((...a: unknown[]) => void),
  callback?: (...a: unknown[]) => void,
) => {
  const cb = (typeof options === "function" ? options : callback) as (
    err: NodeJS.ErrnoException | null,
    address?: string | dns.LookupAddress[],
    family?: number,
  ) => void;
  const opts = (typeof options === "object" ? options : typeof options === "number" ? { family: options } : {}) as dns.LookupOptions;
  dns.lookup(hostname, { ...opts, all: true }, (err, addresses) => {
    if (err) return cb(err);
    const list = addresses as dns.LookupAddress[];
    if (!allowPrivateTargets()) {
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad) return cb(Object.assign(new Error(`refused private address ${bad.address}`), { code: "EPRIVATE" }));
    }
    if (opts.all) return cb(null, list);
    const first = list[0];
    if (!first) return cb(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }));
    cb(null, first.address, first.family);
  });
}) as unknown as typeof dns.lookup;
