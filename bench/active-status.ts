/**
 * GET /v1/consultation_sessions/active/status, polled every 5 s by every phone-mode user, against a bare
 * Fastify hello-world measured in the same run. The goal is at least half the hello-world throughput.
 */
import { CONNECTIONS, SECONDS, load, startApp, startHelloWorld } from './support.js';

const hello = await startHelloWorld();
const server = await startApp();
const [user] = await server.createUsers(1);
const reference = await load(hello.url);
const status = await load(`${server.base}/v1/consultation_sessions/active/status`, { authorization: `Bearer ${user!.token}` });
console.log(`\nGET /v1/consultation_sessions/active/status vs bare Fastify hello-world (${CONNECTIONS} connections, ${SECONDS} s each, ${server.database.kind})`);
console.log(`  hello-world     ${reference.rps.toFixed(0)} req/s   p99 ${reference.p99} ms`);
console.log(`  active/status   ${status.rps.toFixed(0)} req/s   p99 ${status.p99} ms`);
console.log(`  ratio           ${(status.rps / reference.rps).toFixed(3)} (goal ≥ 0.5)`);
await server.close();
await hello.close();
