// A CPU budget for one process, as a container's CPU limit gives it: a cgroup of its own with a CFS
// quota (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us`). Needs a writable cgroup file system (root);
// without one, capFor answers null and the process runs uncapped.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PERIOD_US = 10_000;

export interface CpuCap {
  /** Moves the process (all its threads) into the cgroup. */
  add(pid: number): void;
  /** Removes the cgroup once its processes have exited. */
  remove(): void;
}

/** A cgroup named `name` limited to `cpus` cores' worth of time, or null when none can be made here. */
export function capFor(name: string, cpus: number): CpuCap | null {
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
  } catch {
    return null;
  }
  return {
    add: (pid) => writeFileSync(join(dir, 'cgroup.procs'), String(pid)),
    remove: () => rmdirSync(dir),
  };
}

function cpuControllerRoot(): { path: string; version: 1 | 2 } | null {
  if (existsSync('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') || existsSync('/sys/fs/cgroup/cpu/cgroup.procs')) return { path: '/sys/fs/cgroup/cpu', version: 1 };
  try {
    if (readFileSync('/sys/fs/cgroup/cgroup.subtree_control', 'utf8').split(/\s+/).includes('cpu')) return { path: '/sys/fs/cgroup', version: 2 };
  } catch {
    // no cgroup v2 at the usual place
  }
  return null;
}
