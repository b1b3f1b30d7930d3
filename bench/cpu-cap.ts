// A CPU budget for one process, as a container's CPU limit gives it: a cgroup of its own with a CFS
// quota (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us`). Needs a writable cgroup file system (root);
// without one, capFor answers null and the process runs uncapped.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PERIOD_US = 10_000;

export interface CpuCap {
  /** Moves the process (all its threads) into the cgroup. */
  add(pid: number): void;
  /** Moves the process back to the root cgroup (a cgroup is removed only once nothing is in it). */
  release(pid: number): void;
  /** Removes the cgroup once its processes have exited or been released. */
  remove(): void;
  /** The processes in it now (a service and the helper processes it started). */
  pids(): number[];
  /** CFS periods so far, and those in which the cgroup used its whole quota and was held back. */
  throttling(): { periods: number; throttled: number };
}

export interface CapOptions {
  /**
   * The cgroup's weight against the machine's other work, in cpu.shares (1024: as much as any process).
   * On a machine others share, a high weight makes the budget one the cgroup actually gets, as a
   * container's CPU request does; the quota still holds it to `cpus`.
   */
  shares?: number;
}

/** A cgroup named `name` limited to `cpus` cores' worth of time, or null when none can be made here. */
export function capFor(name: string, cpus: number, options: CapOptions = {}): CpuCap | null {
  const root = cpuControllerRoot();
  if (!root) return null;
  const dir = join(root.path, name);
  const quota = String(Math.round(cpus * PERIOD_US));
  try {
    mkdirSync(dir);
    if (root.version === 2) writeFileSync(join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
    else {
      writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(dir, 'cpu.cfs_quota_us'), quota);
    }
    if (options.shares !== undefined) {
      // cgroup v2 weighs from 1 to 10000 (100 by default) where v1 counted shares from 2 (1024 by default).
      if (root.version === 2)
        writeFileSync(join(dir, 'cpu.weight'), String(Math.round(1 + ((Math.max(2, options.shares) - 2) * 9999) / 262142)));
      else writeFileSync(join(dir, 'cpu.shares'), String(options.shares));
    }
  } catch {
    return null;
  }
  return {
    add: (pid) => writeFileSync(join(dir, 'cgroup.procs'), String(pid)),
    release: (pid) => writeFileSync(join(root.path, 'cgroup.procs'), String(pid)),
    remove: () => rmdirSync(dir),
    pids: () => readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number),
    throttling: () => {
      const stat = Object.fromEntries(
        readFileSync(join(dir, 'cpu.stat'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(' ') as [string, string]),
      );
      return { periods: Number(stat.nr_periods ?? 0), throttled: Number(stat.nr_throttled ?? 0) };
    },
  };
}

function cpuControllerRoot(): { path: string; version: 1 | 2 } | null {
  if (existsSync('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') || existsSync('/sys/fs/cgroup/cpu/cgroup.procs'))
    return { path: '/sys/fs/cgroup/cpu', version: 1 };
  try {
    if (readFileSync('/sys/fs/cgroup/cgroup.subtree_control', 'utf8').split(/\s+/).includes('cpu'))
      return { path: '/sys/fs/cgroup', version: 2 };
  } catch {
    // no cgroup v2 at the usual place
  }
  return null;
}
