// CPU time of child processes (Linux /proc/<pid>/stat), to say where a phase's CPU went: on a 2-CPU machine
// the processes of one benchmark compete with one another as much as with anything else.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (getconf CLK_TCK; 100 on every Linux this runs on). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU seconds a running process has used so far. */
export function cpuSecondsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, in parentheses): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Adds up, per named process, the CPU seconds used between each start(key) and the stop() after it, under
 * that key: e.g. the key of the phase whose turn runs. `processes`: { name: pid }.
 */
export function cpuAccounting(processes) {
  const totals = {};
  let open;
  const read = () => Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
  return {
    start(key) {
      open = { key, at: read() };
    },
    stop() {
      if (!open) return;
      const now = read();
      totals[open.key] ??= {};
      for (const [name, seconds] of Object.entries(now)) totals[open.key][name] = (totals[open.key][name] ?? 0) + seconds - open.at[name];
      open = undefined;
    },
    totals,
  };
}
