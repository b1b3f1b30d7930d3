// The chaos figures beside the quiet baseline of the same run: every scenario in
// test/helpers/chaos-scenarios/index.ts (the same definitions the chaos-*.test.ts files run with their
// bars), each against a service of its own. `BENCH_CHAOS=echoes,relay` runs only the scenarios whose
// names contain one of those words; a scenario that cannot run here (no PostgreSQL) says why.
import { chaosScenarios } from '../test/helpers/chaos-scenarios/index.js';

export default async function chaos(): Promise<void> {
  const only = (process.env.BENCH_CHAOS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const scenario of chaosScenarios) {
    if (only.length && !only.some((word) => scenario.name.includes(word))) continue;
    const unavailable = scenario.unavailable?.();
    if (unavailable) {
      console.log(`chaos: ${scenario.name}: skipped (${unavailable})`);
      continue;
    }
    const { summary } = await scenario.run();
    console.log(`chaos: ${scenario.name}: ${summary}`);
  }
}
