import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { oldRuntimeWarning, RUNTIME_MAJOR } from './runtime-version.js';
import { RUNTIME_MAJOR as SCRIPTS_MAJOR, warnIfOldRuntime } from '../../scripts/lib/runtime.mjs';
import { quietEngineWarnings } from '../../scripts/lib/npm-deps.mjs';

describe('one runtime, said once', () => {
  it('package.json, the scripts and the server name the same Node major, which the tests run on', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
      dependencies: Record<string, string>;
    };
    expect(pkg.engines.node).toBe(`>=${RUNTIME_MAJOR}`);
    expect(SCRIPTS_MAJOR).toBe(RUNTIME_MAJOR);
    expect(pkg.dependencies.node).toMatch(new RegExp(`^~${RUNTIME_MAJOR}\\.`));
    expect(Number(process.versions.node.split('.')[0])).toBe(RUNTIME_MAJOR);
  });

  it('an older Node is named, loudly, by the start script and the server', () => {
    const printed: string[] = [];
    expect(warnIfOldRuntime('20.20.2', (l) => printed.push(l))).toBe(true);
    expect(printed.join('\n')).toContain('WARNING: starting on Node.js 20.20.2');
    expect(warnIfOldRuntime('24.21.0', (l) => printed.push(l))).toBe(false);
    expect(oldRuntimeWarning('22.1.0')).toContain('Node.js 22.1.0');
    expect(oldRuntimeWarning('24.0.0')).toBeUndefined();
  });

  it("npm's engine warnings on an older Node become one line; other warnings stay", () => {
    const stderr = [
      'npm warn EBADENGINE Unsupported engine {',
      "npm warn EBADENGINE   package: 'x@1.0.0',",
      "npm warn EBADENGINE   required: { node: '>=22' },",
      "npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }",
      'npm warn EBADENGINE }',
      'npm warn deprecated y@1.0.0: use z',
    ].join('\n');
    const out = quietEngineWarnings(stderr, '20.20.2');
    expect(out).not.toContain('EBADENGINE');
    expect(out).toContain('npm warn deprecated y@1.0.0');
    expect(out).toContain('npm ran on Node.js 20.20.2');
    expect(quietEngineWarnings(stderr, '24.21.0')).toBe(stderr);
  });
});
