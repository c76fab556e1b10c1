// A TCP relay for fault tests, in its own process (a busy test process must not stall it):
//   node tests/setup/tcp-relay.mjs <listen port> <upstream port>
// Prints "ready". Commands on stdin, each answered "ok":
//   hold  what the upstream sends to a Redis replica's connection (one that asked for PSYNC) is held back
//   cut   drops what was held back and every connection, and stops listening
import net from "node:net";

const [listenPort, upstreamPort] = process.argv.slice(2).map(Number);
let held = false;
let pending = [];
const sockets = new Set();
const server = net.createServer((down) => {
  const up = net.connect(upstreamPort, "127.0.0.1");
  let replica = false;
  for (const s of [up, down]) {
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => {
      up.destroy();
      down.destroy();
      sockets.delete(s);
    });
  }
  down.on("data", (c) => {
    if (/PSYNC/i.test(c.toString("latin1"))) replica = true;
    up.write(c);
  });
  up.on("data", (c) => (held && replica ? pending.push(c) : down.write(c)));
});
server.listen(listenPort, "127.0.0.1", () => process.stdout.write("ready\n"));
let buf = "";
process.stdin.on("data", (c) => {
  buf += c;
  let nl;
  while ((nl = buf.indexOf("\n")) >= 0) {
    const cmd = buf.slice(0, nl).trim();
    buf = buf.slice(nl + 1);
    if (cmd === "hold") held = true;
    if (cmd === "cut") {
      pending = [];
      server.close();
      for (const s of sockets) s.destroy();
    }
    process.stdout.write("ok\n");
  }
});
process.stdin.on("end", () => process.exit(0));
