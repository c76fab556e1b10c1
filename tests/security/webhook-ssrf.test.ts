import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { postWebhook } from "../../app/integrations/webhooks.server";
import { guardedLookupWith, nonPublicRange, PUBLIC_ADDRESS_MESSAGE, webhookUrlProblem } from "../../app/integrations/webhook-url.server";

/*
 * Webhook SSRF (issue #13 item 1, docs/decisions/115): every spelling of a non-public address is refused
 * when saved and when delivered; host names are checked on every DNS answer inside the connection's own
 * lookup; redirects are not followed; a refused target leaves the same trace whatever listens there.
 */

const NON_PUBLIC = [
  // IPv4 in every spelling the URL parser accepts
  "127.0.0.1",
  "127.255.255.254",
  "2130706433",
  "0x7f.1",
  "0x7f000001",
  "0177.0.0.1",
  "127.1",
  "0",
  "0.0.0.0",
  "10.0.0.1",
  "172.16.5.4",
  "192.168.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "100.100.100.200",
  "224.0.0.1",
  "239.255.255.250",
  "255.255.255.255",
  "240.0.0.1",
  "192.0.0.192",
  "198.18.0.1",
  "192.0.2.10",
  // IPv6, and IPv6 carrying a private IPv4
  "[::1]",
  "[::]",
  "[0:0:0:0:0:0:0:1]",
  "[fe80::1]",
  "[fc00::1]",
  "[fd00:ec2::254]",
  "[ff02::1]",
  "[fec0::1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[::ffff:10.0.0.1]",
  "[::ffff:169.254.169.254]",
  "[::127.0.0.1]",
  "[::7f00:1]",
  "[64:ff9b::127.0.0.1]",
  "[64:ff9b::a00:1]",
  "[64:ff9b:1::7f00:1]",
  "[2002:7f00:1::1]",
  "[2002:a00:1::]",
  "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
  "[2001:db8::1]",
  "[100::1]",
];
const PUBLIC = ["8.8.8.8", "93.184.215.14", "[2606:4700:4700::1111]", "[::ffff:8.8.8.8]", "[64:ff9b::808:808]", "[2002:808:808::1]"];

describe("classification of addresses", () => {
  it("refuses every non-public address in every spelling, at save time, in production", () => {
    for (const host of NON_PUBLIC) {
      for (const url of [`http://${host}/x`, `https://${host}:8443/hook?a=1`]) {
        expect(webhookUrlProblem(url, { allowPrivate: false }), url).toBe(PUBLIC_ADDRESS_MESSAGE);
      }
    }
  });

  it("accepts public addresses, including public IPv4 inside mapped, NAT64 and 6to4 IPv6", () => {
    for (const host of PUBLIC) expect(webhookUrlProblem(`https://${host}/x`, { allowPrivate: false }), host).toBeNull();
    expect(webhookUrlProblem("https://hooks.example.com/dpt", { allowPrivate: false })).toBeNull();
  });

  it("refuses internal names (localhost in any case, trailing dot, .internal, single labels) and non-addresses", () => {
    for (const url of [
      "http://localhost/",
      "http://LOCALHOST./",
      "http://a.localhost/",
      "http://metadata.google.internal/",
      "http://printer.local/",
      "http://intranet/",
    ]) {
      expect(webhookUrlProblem(url, { allowPrivate: false }), url).toBe(PUBLIC_ADDRESS_MESSAGE);
    }
    expect(nonPublicRange("not-an-address")).toBe("invalid");
    expect(nonPublicRange("fe80::1%eth0")).not.toBeNull();
    expect(webhookUrlProblem("file:///etc/passwd", { allowPrivate: false })).toMatch(/https/);
    expect(webhookUrlProblem("gopher://127.0.0.1:6379/_FLUSHALL", { allowPrivate: false })).toMatch(/https/);
  });
});

describe("the DNS guard inside the connection", () => {
  const fakeDns = (answers: string[]) =>
    ((_host: string, _opts: unknown, cb: (e: null, a: dns.LookupAddress[]) => void) =>
      cb(
        null,
        answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
      )) as unknown as typeof dns.lookup;
  const lookupOnce = (lookup: typeof dns.lookup, all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      lookup("hooks.example.com", { all }, (err, address) => resolve({ err, address })),
    );

  it("refuses the connection when any answer is private, whichever comes first", async () => {
    for (const answers of [["127.0.0.1"], ["93.184.215.14", "10.0.0.1"], ["::ffff:127.0.0.1"], ["2606:4700::1", "fd00::1"], []]) {
      for (const all of [true, false]) {
        const { err } = await lookupOnce(
          guardedLookupWith(fakeDns(answers), () => false),
          all,
        );
        expect(err?.message, answers.join(",")).toBe(PUBLIC_ADDRESS_MESSAGE);
      }
    }
  });

  it("passes public answers through in the shape the caller asked for", async () => {
    const lookup = guardedLookupWith(fakeDns(["93.184.215.14", "2606:4700::1"]), () => false);
    expect((await lookupOnce(lookup, true)).address).toEqual([
      { address: "93.184.215.14", family: 4 },
      { address: "2606:4700::1", family: 6 },
    ]);
    expect((await lookupOnce(lookup, false)).address).toBe("93.184.215.14");
  });
});

describe("delivery", () => {
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];
  let before = process.env.NODE_ENV;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      if (req.url === "/redirect") {
        res.writeHead(302, { Location: `http://127.0.0.1:${port}/landed` }).end();
        return;
      }
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => {
    hits.length = 0;
    before = process.env.NODE_ENV;
  });
  afterEach(() => {
    process.env.NODE_ENV = before;
  });

  it("in production a loopback listener behind any spelling receives nothing, and the log says only 'public address'", async () => {
    process.env.NODE_ENV = "production";
    for (const host of ["127.0.0.1", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "2130706433", "0x7f.1", "127.1", "[64:ff9b::7f00:1]", "localhost"]) {
      const result = await postWebhook(`http://${host}:${port}/x`, "{}", {}, 2000);
      expect(result, host).toMatchObject({ statusCode: null, error: PUBLIC_ADDRESS_MESSAGE });
    }
    expect(hits).toEqual([]);
  });

  it("a host name whose DNS answer turns private at delivery time is refused before connecting", async () => {
    process.env.NODE_ENV = "production";
    const rebinding = guardedLookupWith(((_h: string, _o: unknown, cb: (e: null, a: dns.LookupAddress[]) => void) =>
      cb(null, [{ address: "127.0.0.1", family: 4 }])) as unknown as typeof dns.lookup);
    const result = await postWebhook(`http://hooks.example.com:${port}/x`, "{}", {}, 2000, { lookup: rebinding });
    expect(result).toMatchObject({ statusCode: null, error: PUBLIC_ADDRESS_MESSAGE });
    expect(hits).toEqual([]);
  });

  it("a refused target logs the same row whether a port is open or closed (no port scanning)", async () => {
    process.env.NODE_ENV = "production";
    const open = await postWebhook(`http://[::ffff:127.0.0.1]:${port}/x`, "{}", {}, 2000);
    const closed = await postWebhook("http://[::ffff:127.0.0.1]:1/x", "{}", {}, 2000);
    expect(open).toEqual(closed);
    expect(open).toEqual({ statusCode: null, error: PUBLIC_ADDRESS_MESSAGE, durationMs: 0 });
  });

  it("redirects are never followed (outside production, where loopback is allowed)", async () => {
    process.env.NODE_ENV = "development";
    const result = await postWebhook(`http://127.0.0.1:${port}/redirect`, "{}", {}, 2000);
    expect(result).toMatchObject({ statusCode: 302, error: "HTTP 302" });
    expect(hits).toEqual(["/redirect"]);
  });
});
