// What a process and its descendants cost, from ps and /proc (Linux): the tree as ps lists it now, its CPU
// ticks (utime + stime, 100 a second), and its proportional resident memory (PSS: a page shared by n
// processes counts 1/n in each, so the sum is what the tree really holds, unlike summed RSS).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** A process and its descendants (Chromium's zygote, renderer, GPU and utility processes included). */
export function processTree(root: number): Array<{ pid: number; rssKb: number; cpu: number }> {
  const all = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,pcpu='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((row) => row.trim().split(/\s+/).map(Number))
    .map(([pid, ppid, rssKb, cpu]) => ({ pid: pid!, ppid: ppid!, rssKb: rssKb!, cpu: cpu! }));
  const tree = all.filter((p) => p.pid === root);
  for (let grew = true; grew;) {
    const more = all.filter((p) => !tree.includes(p) && tree.some((q) => q.pid === p.ppid));
    tree.push(...more);
    grew = more.length > 0;
  }
  return tree;
}

/** CPU seconds the processes have used so far (a process gone counts 0). */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** The processes' summed proportional set size, MB (a process gone or unreadable counts 0). */
export function pssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}
