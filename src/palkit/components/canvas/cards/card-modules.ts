// The card kinds' renderers, each a chunk of its own fetched the first time a card of that kind shows,
// so that pal-canvas loads none of them before the PAL shows a card.
import type { CanvasComponentName } from '../../../../protocol/canvas.js';

const cardModules = {
  question: () => import('./question.js'),
  input: () => import('./input.js'),
  calendar: () => import('./calendar.js'),
  scheduling_embed: () => import('./scheduling.js'),
  text: () => import('./text.js'),
  chart: () => import('./chart.js'),
  alert: () => import('./alert.js'),
} satisfies Record<CanvasComponentName, () => Promise<unknown>>;
type CardModules = { [C in CanvasComponentName]: Awaited<ReturnType<(typeof cardModules)[C]>> };
/** The renderers loaded so far, by kind. */
export const cards: Partial<CardModules> = {};
const cardsLoading = new Map<CanvasComponentName, Promise<void>>();

/** Loads a kind's renderer once (again after a failure). */
export function loadCard(kind: CanvasComponentName): Promise<void> {
  if (cards[kind]) return Promise.resolve();
  let loading = cardsLoading.get(kind);
  if (!loading) {
    loading = cardModules[kind]()
      .then((module) => void ((cards as Record<string, unknown>)[kind] = module))
      .finally(() => cardsLoading.delete(kind));
    cardsLoading.set(kind, loading);
  }
  return loading;
}
