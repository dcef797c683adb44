// Loopback proxy for object-store tests: latency, and (with --faults) injected HTTP faults.
//
//   node delayproxy.mjs LISTEN_PORT TARGET_PORT ONE_WAY_DELAY_MS
//       TCP proxy; every chunk leaves ONE_WAY_DELAY_MS after it arrived, both ways (RTT += 2*delay).
//   node delayproxy.mjs LISTEN_PORT TARGET_PORT ONE_WAY_DELAY_MS --faults 503,reset,truncate,stall --every N
//       HTTP proxy; request number k (1-based, over all connections) with k % N == 0 gets the next
//       fault of the list, in turn; the others are forwarded unchanged (after the delay):
//         503       answer 503 with an S3 SlowDown error document
//         reset     close the connection without an answer (a connection reset)
//         truncate  forward the answer's headers (Content-Length intact) and half its body, then close
//         stall     never answer (the client's request timeout must fire)
//   node delayproxy.mjs LISTEN_PORT TARGET_PORT ONE_WAY_DELAY_MS --count FILE
//       TCP proxy that also counts the HTTP requests passing through (request lines of the
//       client -> server streams; reads carry no bodies) and the bytes answered (server -> client,
//       headers included), and keeps FILE holding "REQUESTS BYTES" (scripts/bench-s3.mjs compares
//       the requests and bytes of lance-cli and Lance this way).
//   Prints "listening" on stderr when ready; on SIGTERM prints "faults: N" (how many were injected).
import fs from "node:fs";
import net from "node:net";
import http from "node:http";

const args = process.argv.slice(2);
const [lport, tport, delay] = args.slice(0, 3).map(Number);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const faults = (opt("--faults") || "").split(",").filter(Boolean);
const every = Number(opt("--every") || 0);
const countFile = opt("--count");
let requests = 0, bytes = 0, writePending = false;
/// Rewrites FILE once per turn of the event loop, after the chunks that turn handled.
function saveCounts() {
  if (writePending) return;
  writePending = true;
  setImmediate(() => { writePending = false; fs.writeFileSync(countFile, `${requests} ${bytes}\n`); });
}
if (countFile) fs.writeFileSync(countFile, "0 0\n");
/// Counts request lines in one client -> server stream (split chunks included).
function requestCounter() {
  let carry = "";
  const re = /(?:^|\r\n)(?:GET|HEAD|PUT|POST|DELETE) [^ \r\n]+ HTTP\/1\.[01]\r\n/g;
  return (chunk) => {
    const text = carry + chunk.toString("latin1");
    let n = 0, last = 0, m;
    re.lastIndex = 0;
    while ((m = re.exec(text))) { n++; last = re.lastIndex; }
    // Keep the unmatched end (a request line split across chunks may be in it).
    carry = text.slice(Math.max(last, text.length - 4096));
    if (n) { requests += n; saveCounts(); }
  };
}
let injected = 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tcpProxy() {
  // Each chunk leaves `delay` ms after it arrived, in arrival order: one queue and one timer per
  // direction (separate timers per chunk can fire out of order when their rounded delays differ,
  // which corrupts the byte stream).
  function pipeDelayed(from, to) {
    const queue = [];  // {due, chunk}; chunk null = end
    let timer = null;
    const flush = () => {
      timer = null;
      while (queue.length && queue[0].due <= Date.now()) {
        const { chunk } = queue.shift();
        if (to.destroyed) continue;
        if (chunk === null) to.end(); else to.write(chunk);
      }
      if (queue.length) timer = setTimeout(flush, Math.max(0, queue[0].due - Date.now()));
    };
    const push = (chunk) => {
      queue.push({ due: Date.now() + delay, chunk });
      if (!timer) timer = setTimeout(flush, Math.max(0, queue[0].due - Date.now()));
    };
    from.on("data", (chunk) => push(chunk));
    from.on("end", () => push(null));
    from.on("error", () => to.destroy());
  }
  return net.createServer({ noDelay: true }, (client) => {
    const up = net.connect({ host: "127.0.0.1", port: tport, noDelay: true });
    if (countFile) {
      client.on("data", requestCounter());
      up.on("data", (chunk) => { bytes += chunk.length; saveCounts(); });
    }
    pipeDelayed(client, up); pipeDelayed(up, client);
    up.on("error", () => client.destroy()); client.on("error", () => up.destroy());
    // A connection idle for 5 s is closed: a client's pool of keep-alive connections (LanceDB
    // opens thousands for a batch of refined searches) would otherwise hold two descriptors
    // each until the proxy has none left for the next reader.
    client.setTimeout(5000, () => { client.destroy(); up.destroy(); });
  });
}

function httpProxy() {
  let count = 0;
  const agent = new http.Agent({ keepAlive: true });
  return http.createServer(async (req, res) => {
    const k = ++count;
    const fault = every > 0 && k % every === 0 ? faults[(k / every - 1) % faults.length] : null;
    if (delay) await sleep(delay);
    if (fault) injected++;
    if (fault === "503") {
      res.writeHead(503, { "content-type": "application/xml" });
      res.end("<?xml version=\"1.0\"?><Error><Code>SlowDown</Code><Message>injected</Message></Error>");
      return;
    }
    if (fault === "reset") { req.socket.destroy(); return; }
    if (fault === "stall") return;
    const up = http.request({ host: "127.0.0.1", port: tport, method: req.method, path: req.url,
                              headers: req.headers, agent }, async (ur) => {
      const chunks = [];
      for await (const c of ur) chunks.push(c);
      const body = Buffer.concat(chunks);
      if (delay) await sleep(delay);
      res.writeHead(ur.statusCode, ur.headers);
      if (fault === "truncate" && body.length > 1) {
        res.write(body.subarray(0, body.length >> 1));
        setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      res.end(body);
    });
    up.on("error", () => req.socket.destroy());
    req.pipe(up);
  });
}

const server = faults.length ? httpProxy() : tcpProxy();
let listening = false;
// Before it listens, an error (the port taken) ends the proxy, so its starter tries another
// port; once it serves, an error of one connection or of accept (too many sockets at once)
// is logged and the proxy goes on, so a burst of connections cannot take it down mid-run.
server.on("error", (e) => {
  console.error(`proxy: ${e.message}`);
  if (!listening) process.exit(1);
});
process.on("uncaughtException", (e) => {
  console.error(`proxy: ${e.stack || e}`);
  if (!listening) process.exit(1);
});
server.listen(lport, "127.0.0.1", () => {
  listening = true;
  console.error(`listening: 127.0.0.1:${lport} -> 127.0.0.1:${tport}, +${delay} ms each way` +
                (faults.length ? `, faults ${faults.join(",")} every ${every} requests` : ""));
});
process.on("SIGTERM", () => { console.error(`faults: ${injected}`); process.exit(0); });
