// Picks the conferencing provider from the configuration: Daily when a Daily API key is set, else local rooms.
import type { ServiceDeps } from '../../platform/context.js';
import { dailyProvider } from './daily.js';
import { localProvider } from './local.js';
import type { ConferencingProvider } from './provider.js';

export type { ConferencingProvider } from './provider.js';
export { ProviderError, recordingRefusal } from './provider.js';

export function conferencingProvider(
  deps: Pick<ServiceDeps, 'config' | 'secrets' | 'fetch'>,
  name?: 'local' | 'daily',
): ConferencingProvider {
  const { daily } = deps.config;
  const wanted = name ?? (daily.apiKey ? 'daily' : 'local');
  if (wanted === 'daily') {
    if (!daily.apiKey) throw new Error('the daily provider needs PALKIT_DAILY_API_KEY');
    return dailyProvider({ apiKey: daily.apiKey, apiUrl: daily.apiUrl, fetch: deps.fetch });
  }
  return localProvider(deps.config.publicUrl, deps.secrets);
}
