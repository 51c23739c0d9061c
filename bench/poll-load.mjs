/**
 * Load for the polling benchmark, in its own process: GET `path` with a different user's token on each request,
 * round robin over the tokens in a file, either at a fixed overall rate (open loop: the phones' cadence) or as
 * fast as the server answers (closed loop). Prints autocannon's result as JSON.
 * Usage: node bench/poll-load.mjs '{"url":…,"path":…,"tokensFile":…,"connections":…,"seconds":…,"rate":…}'
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const opts = JSON.parse(process.argv[2]);
const tokens = readFileSync(opts.tokensFile, 'utf8').split('\n').filter(Boolean);
let next = 0;
const result = await autocannon({
  url: opts.url,
  connections: opts.connections,
  duration: opts.seconds,
  ...(opts.rate ? { overallRate: opts.rate } : {}),
  requests: [
    {
      method: 'GET',
      path: opts.path,
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` } }),
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  }),
);
