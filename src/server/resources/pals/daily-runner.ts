// Who puts a PAL in its Daily rooms: palkit's own runner (a headless Chromium page per call, beside the
// service) or the customer's own bot, to which each room is handed (PALKIT_PAL_RUNNER_URL). A PAL picks
// one with `layers.daily.runner`; without it the service's default holds: the customer's bot when one is
// configured, else palkit's runner.
import type { Config } from '../../platform/config.js';

export type DailyRunner = 'palkit' | 'handoff';
export const DAILY_RUNNERS = ['palkit', 'handoff'] as const;

type RunnerConfig = Pick<Config, 'daily' | 'palRunner' | 'dailyRunner'>;

/** The runner a PAL's stored layers pick, or null when they pick none. */
export function pickedDailyRunner(layers: unknown): DailyRunner | null {
  const daily = typeof layers === 'object' && layers !== null ? (layers as { daily?: unknown }).daily : undefined;
  const runner = typeof daily === 'object' && daily !== null ? (daily as { runner?: unknown }).runner : undefined;
  return runner === 'palkit' || runner === 'handoff' ? runner : null;
}

/** Which runner a PAL's Daily rooms get on this service. */
export function dailyRunnerFor(config: RunnerConfig, layers: unknown): DailyRunner {
  return pickedDailyRunner(layers) ?? (config.palRunner ? 'handoff' : 'palkit');
}

/** Why this service cannot give a PAL the runner it picks (null when it can, or when it runs no Daily rooms). */
export function dailyRunnerRefusal(config: RunnerConfig, runner: DailyRunner | null): string | null {
  if (!config.daily.apiKey || runner === null) return null;
  if (runner === 'handoff' && !config.palRunner)
    return 'handoff needs a bot to hand the rooms to, and this service has none (PALKIT_PAL_RUNNER_URL is unset)';
  if (runner === 'palkit' && config.dailyRunner.pages === 0)
    return "palkit's runner is off on this service (PALKIT_DAILY_RUNNER_PAGES is 0)";
  return null;
}
