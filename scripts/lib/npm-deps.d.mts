export function quietEngineWarnings(stderr: string, npmNodeVersion: string): string;
export function ensureNpmDependencies(): void;
