export type DataLock = { pid: number; port?: number; adminSocket?: boolean };
export function liveDataLock(dataDir: string): DataLock | undefined;
export function portInUse(port: string | number, host?: string): Promise<boolean>;
export function startBlocker(env: NodeJS.ProcessEnv): Promise<string | undefined>;
