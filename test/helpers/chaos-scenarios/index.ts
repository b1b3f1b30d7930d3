// The chaos scenarios, each defined once: its chaos-*.test.ts file runs it and asserts its bar, and
// `npm run bench -- chaos` (bench/chaos.bench.ts) runs every scenario in this list and prints its figures
// beside the quiet baseline of the same run. A new scenario is a file here that exports a ChaosScenario,
// added to the list.
import type { ChaosScenario } from './scenario.js';
import { floods } from './floods.js';
import { zeroCostFrames } from './zero-cost-frames.js';
import { fairEchoes } from './fair-echoes.js';
import { relayCapacity } from './relay-capacity.js';
import { speechQueue } from './speech-queue.js';
import { expiringConversations } from './expiring-conversations.js';
import { idleUpgrades } from './idle-upgrades.js';

export type { ChaosFigures, ChaosScenario } from './scenario.js';

export const chaosScenarios: ChaosScenario[] = [
  floods,
  zeroCostFrames,
  fairEchoes,
  relayCapacity,
  speechQueue('wasm'),
  speechQueue('native'),
  expiringConversations(),
  idleUpgrades(),
];
