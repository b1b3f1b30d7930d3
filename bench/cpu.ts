// CPU time spent during a benchmark run, from /proc (Linux): the whole machine's busy share, and the
// CPU seconds of given processes and of PostgreSQL's. Used to tell a run bound by the machine's cores
// from one bound by the code under test.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture Node runs on

export interface CpuSnapshot {
  busyTicks: number;
  totalTicks: number;
  /** CPU ticks per process id, for the processes asked about. */
  processes: Map<number, number>;
  /** CPU ticks per PostgreSQL process. */
  postgres: Map<number, number>;
}

export interface CpuUse {
  /** Share of all cores busy over the run (0–1). */
  machineBusy: number;
  cores: number;
  /** CPU seconds of the processes asked about, summed. */
  processSeconds: number;
  postgresSeconds: number;
  /** CPU seconds of everything else (the callers' process, the kernel, other work). */
  otherSeconds: number;
}

export function cpuSnapshot(pids: number[]): CpuSnapshot {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3]! + fields[4]!; // idle + iowait
  const totalTicks = fields.reduce((a, b) => a + b, 0);
  const processes = new Map(pids.map((pid) => [pid, readStat(pid)?.ticks ?? 0]));
  const postgres = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat?.comm === 'postgres') postgres.set(Number(entry), stat.ticks);
  }
  return { busyTicks: totalTicks - idle, totalTicks, processes, postgres };
}

export function cpuUse(before: CpuSnapshot, after: CpuSnapshot): CpuUse {
  const busySeconds = (after.busyTicks - before.busyTicks) / TICKS_PER_SECOND;
  let processTicksSum = 0;
  for (const [pid, ticks] of after.processes) processTicksSum += ticks - (before.processes.get(pid) ?? 0);
  const processSeconds = processTicksSum / TICKS_PER_SECOND;
  // Per process, as backends come and go with the pools: one that started during the run counts from
  // zero; one that exited during it takes what it used since the first snapshot with it (uncounted).
  let postgresTicks = 0;
  for (const [pid, ticks] of after.postgres) postgresTicks += ticks - (before.postgres.get(pid) ?? 0);
  const postgresSeconds = postgresTicks / TICKS_PER_SECOND;
  return {
    machineBusy: (after.busyTicks - before.busyTicks) / (after.totalTicks - before.totalTicks),
    cores: availableParallelism(),
    processSeconds,
    postgresSeconds,
    otherSeconds: Math.max(0, busySeconds - processSeconds - postgresSeconds),
  };
}

/** utime + stime of a process, with its command name; undefined once it is gone. */
function readStat(pid: number): { comm: string; ticks: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const rest = text.slice(close + 2).split(' ');
  // After the command: state is field 3 of stat(5), so utime (14) and stime (15) are at 11 and 12 here.
  return { comm, ticks: Number(rest[11]) + Number(rest[12]) };
}
