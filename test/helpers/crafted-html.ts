// Crafted HTML of a given size, of the kinds that make naive extractors slow: what an uploader could send
// on purpose. Each kind repeats one unit until the page reaches `bytes`.
export const CRAFTED_KINDS = [
  'nested-unclosed',
  'unclosed-paragraphs',
  'stray-end-tags',
  'attribute-heavy',
  'entity-flood',
  'comment-noise',
  'unterminated-tags',
  'table-soup',
  'plain-text',
] as const;
export type CraftedKind = (typeof CRAFTED_KINDS)[number];

const UNITS: Record<CraftedKind, string> = {
  'nested-unclosed': '<div><span><a href="/x">deep ',
  'unclosed-paragraphs': '<p>paragraph that never closes ',
  'stray-end-tags': '<b>x</i></u></div></span></section></b>',
  'attribute-heavy': '<div a1="1" a2=\'2\' a3=3 data-x="&amp;&lt;&gt;" class="c c c c" id=i hidden=false>t</div>',
  'entity-flood': '&amp;&hellip;&#x1F600;&#8212;&nbsp;&notanentity;&lt',
  'comment-noise': '<!-- a comment <div> --><![CDATA[ x ]]><!doctype x><?pi ?>text ',
  'unterminated-tags': '<div class="open <p <a href=\'x ',
  'table-soup': '<table><tr><td>cell<td>cell<tr><th>head',
  'plain-text': 'Plain words of an ordinary page, many times over. ',
};

export function craftedHtml(kind: CraftedKind, bytes: number): string {
  const unit = UNITS[kind];
  const body = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  return `<!doctype html><html><head><title>Crafted</title></head><body>${body}</body></html>`;
}
