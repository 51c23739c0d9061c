export const RUNTIME_MAJOR: number;
export function runtimeNode(): string;
export function warnIfOldRuntime(version: string, print: (line: string) => void): boolean;
