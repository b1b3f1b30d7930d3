// The last line of the fault boundary: a promise rejected with nobody to handle it is logged and counted
// in /metrics instead of ending the process (Node's default), which would end every call it holds.
// Installed by the processes that run a service (`palkit serve`, the demo), not by the service factory.
import type { Logger } from '../platform/log.js';
import type { ServiceMetrics } from '../platform/metrics.js';

export function guardRejections(log: Logger, metrics: Pick<ServiceMetrics, 'unhandledRejections'>): () => void {
  const onRejection = (reason: unknown) => {
    metrics.unhandledRejections.inc();
    log.error('a promise was rejected with no handler; the process goes on', {
      error: reason instanceof Error ? reason.message : String(reason),
      ...(reason instanceof Error && reason.stack ? { stack: reason.stack.split('\n').slice(0, 6).join(' | ') } : {}),
    });
  };
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}
