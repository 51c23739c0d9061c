/** Runs every benchmark in turn; each prints its own figures. */
import { execFileSync } from 'node:child_process';

execFileSync('npx', ['tsx', 'bench/account.ts'], { stdio: 'inherit' });
execFileSync('node', ['scripts/check-bundle-budget.mjs'], { stdio: 'inherit' });
