export const ALLOWED_LICENCES: Set<string>;
export function licenceAllowed(expression: unknown): boolean;
export function refusedLicences(lock: {
  packages?: Record<string, { dev?: boolean; license?: string; version?: string }>;
}): { where: string; version?: string; license: string }[];
