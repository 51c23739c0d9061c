/**
 * The Node.js major version the server is built and tested on. package.json's engines and scripts/lib/runtime.mjs
 * say the same (a test keeps them equal). A server started on an older Node by hand, not through npm start or the
 * container, says so at once, in the log an operator reads, instead of failing oddly later.
 */
export const RUNTIME_MAJOR = 24;

export function oldRuntimeWarning(version: string = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= RUNTIME_MAJOR) return undefined;
  return `Running on Node.js ${version}, not the Node.js ${RUNTIME_MAJOR} this server is built and tested on: start it with npm start (which uses the project's own Node ${RUNTIME_MAJOR}) or in the container image.`;
}
