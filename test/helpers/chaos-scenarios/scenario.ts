// What a chaos scenario is: a run against the real service (a process of its own) that measures a quiet
// baseline and the figures under attack in the same run, and says them in one line.

export interface ChaosFigures {
  /** The figures in one line, quiet baseline beside the figures under attack. */
  summary: string;
}

export interface ChaosScenario<F extends ChaosFigures = ChaosFigures> {
  name: string;
  /** Why the scenario cannot run here (say, it needs PostgreSQL), or null when it can. */
  unavailable?: () => string | null;
  run(): Promise<F>;
}
