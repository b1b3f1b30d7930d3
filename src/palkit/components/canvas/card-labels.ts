// A card's words outside its body: its label (announced, and naming a card whose header is empty) and
// its header, in the visitor's language.
import type { CanvasCardSpec } from '../../../protocol/canvas.js';
import type { IncallStringKey } from '../i18n/strings-incall.js';

/** What the card is called where it is announced or labelled: its title, else its prompt or kind. */
export function cardLabel(spec: CanvasCardSpec, msg: (key: IncallStringKey) => string): string {
  switch (spec.component) {
    case 'question':
      return spec.args.question;
    case 'input':
      return spec.args.prompt;
    case 'scheduling_embed':
      return spec.args.title ?? msg('canvas.schedulingTitle');
    case 'alert':
      return spec.args.title ?? msg(`canvas.severity.${spec.args.severity ?? 'info'}`);
    default:
      return spec.args.title ?? msg('canvas.label');
  }
}

/** The header's text: the title, else the card's own prompt where it has one (never an empty header row). */
export function cardHeading(spec: CanvasCardSpec, msg: (key: IncallStringKey) => string): { text: string; fromLabel: boolean } {
  if ('title' in spec.args && spec.args.title) return { text: spec.args.title, fromLabel: false };
  switch (spec.component) {
    case 'question':
      return { text: spec.args.question, fromLabel: true };
    case 'input':
      return { text: spec.args.prompt, fromLabel: true };
    case 'alert':
      return { text: msg(`canvas.severity.${spec.args.severity ?? 'info'}`), fromLabel: true };
    case 'scheduling_embed':
      return { text: msg('canvas.schedulingTitle'), fromLabel: false };
    case 'calendar': {
      const what = msg(spec.args.mode === 'slot_picker' || spec.args.mode === 'date_time' ? 'canvas.chooseSlot' : 'canvas.chooseDate');
      return { text: what.replace(/[.。]$/u, ''), fromLabel: false };
    }
    default:
      return { text: '', fromLabel: false };
  }
}
