/**
 * Which installed packages fall in a known advisory: the lock file's packages against security/known-advisories.json
 * (OSV-style ranges), so the check needs no network. Also the registry's bulk audit, when it answers.
 */

/** Numeric parts of a version, a pre-release sorting before its release ("6.2.108-beta" < "6.2.108"). */
function parts(version) {
  const [core, pre] = String(version).split('-', 2);
  return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre: pre !== undefined };
}

export function compareVersions(a, b) {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return x.pre === y.pre ? 0 : x.pre ? -1 : 1;
}

const affects = (advisory, version) =>
  compareVersions(version, advisory.introduced ?? '0') >= 0 && (advisory.fixed === undefined || compareVersions(version, advisory.fixed) < 0);

/** Every package the lock file installs: its real name (an alias's target), version, place and whether it ships. */
export function installedPackages(lock) {
  const out = [];
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    if (!where || !entry.version || entry.link) continue;
    const name = entry.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    out.push({ name, version: entry.version, where, ships: !entry.dev });
  }
  return out;
}

export function findKnownAdvisories(lock, known) {
  const found = [];
  for (const pkg of installedPackages(lock)) {
    for (const advisory of known.advisories) if (advisory.package === pkg.name && affects(advisory, pkg.version)) found.push({ ...pkg, advisory });
  }
  return found;
}

/**
 * The registry's bulk audit for the packages that ship, or undefined when it does not answer (offline, or a proxy
 * that refuses POST): the caller then relies on the recorded advisories alone.
 */
export async function registryAudit(lock, { timeoutMs = 8000, registry = 'https://registry.npmjs.org' } = {}) {
  const body = {};
  for (const pkg of installedPackages(lock)) if (pkg.ships) (body[pkg.name] ??= []).includes(pkg.version) || body[pkg.name].push(pkg.version);
  try {
    const res = await fetch(`${registry}/-/npm/v1/security/advisories/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return undefined;
    return await res.json();
  } catch {
    return undefined;
  }
}
