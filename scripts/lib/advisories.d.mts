export type Advisory = { id: string; package: string; introduced?: string; fixed?: string; summary: string };
export type KnownAdvisories = { updated: string; advisories: Advisory[] };
export type Lock = { packages?: Record<string, { version?: string; dev?: boolean; name?: string; link?: boolean }> };
export type InstalledPackage = { name: string; version: string; where: string; ships: boolean };
export function compareVersions(a: string, b: string): number;
export function installedPackages(lock: Lock): InstalledPackage[];
export function findKnownAdvisories(lock: Lock, known: KnownAdvisories): (InstalledPackage & { advisory: Advisory })[];
export function registryAudit(
  lock: Lock,
  opts?: { timeoutMs?: number; registry?: string },
): Promise<Record<string, { severity: string; title: string; url?: string; vulnerable_versions: string }[]> | undefined>;
