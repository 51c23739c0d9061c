/**
 * Telling this process apart from the ones that came before it on the same DATA_DIR. A pid alone is not enough:
 * after a restart the server may get the pid of the process that crashed (always 1 in a container), and a folder
 * or lock named after that pid would look like its own. So every process also has a random instance id, and, on
 * Linux, the kernel's start time of a pid (from /proc) says whether a live pid is still the process that wrote a
 * name or a later one that reuses it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Random per process: two processes never share it, whatever their pids. */
export const INSTANCE_ID = randomBytes(6).toString('hex');

/** When the process with this pid started (clock ticks since boot), or undefined where /proc cannot say. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may itself hold spaces or parentheses: count after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Field 22 (starttime) is the 20th after the command name.
    const start = fields[19];
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process's own start time, read once ('0' where unknown). */
export const OWN_START_TIME = processStartTime(process.pid) ?? '0';

/**
 * Whether a name written by (pid, start time, instance) may still belong to a running process: true for this
 * process's own names; false for another instance under this pid, for a dead pid, and for a live pid that started
 * at another time than the writer.
 */
export function ownerMayBeRunning(owner: { pid: number; startTime?: string; instance?: string }): boolean {
  if (owner.pid === process.pid) return owner.instance === INSTANCE_ID;
  if (!processIsAlive(owner.pid)) return false;
  if (owner.startTime && owner.startTime !== '0') {
    const now = processStartTime(owner.pid);
    if (now !== undefined && now !== owner.startTime) return false;
  }
  return true;
}
