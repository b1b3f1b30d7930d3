// CPU seconds spent by this process's descendants (a browser's processes: its web, GPU and network processes, its
// driver), read from /proc: a figure that the machine's other load does not inflate as it does wall time.
// Linux only; elsewhere NaN.
import { readdirSync, readFileSync } from 'node:fs';

export function descendantsCpuSeconds(root = process.pid): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return NaN;
  }
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  const tick = 100; // USER_HZ: 100 on every Linux this runs on
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state, ppid, … utime (12th), stime (13th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) / tick);
    } catch {
      // The process ended while being read.
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  let sum = 0;
  for (const [pid, seconds] of cpu) if (below(pid)) sum += seconds;
  return sum;
}
