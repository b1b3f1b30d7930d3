// A sentence that is a table of ranges ("Riders from 160 to 170 cm usually ride S, 170 to 180 cm M,
// 180 to 190 cm L, and taller riders XL") read for the one number a question gives ("I'm 185 cm"):
// the row that holds it, phrased like the table's first row ("Riders from 180 to 190 cm usually ride L.").

const RANGE = /(\d+(?:[.,]\d+)?)\s*(?:to|–|-|—|bis|à|a|al|tot|até)\s*(\d+(?:[.,]\d+)?)(\s*[\p{L}%€$£]+)?/u;
const NUMBER = /(?<![\d.,])(\d+(?:[.,]\d+)?)(?![\d.,])/gu;

const num = (s: string) => Number(s.replace(',', '.'));

/** The row of a range table in `sentence` that holds the question's number, or null when there is no such table or number. */
export function rowFor(question: string, sentence: string): string | null {
  const asked = [...question.matchAll(NUMBER)].map((m) => num(m[1]!));
  if (asked.length !== 1) return null;
  const value = asked[0]!;
  // Rows: clauses split at commas, semicolons and a final "and".
  const rows = sentence.replace(/[.!]$/, '').split(/\s*[,;]\s*(?:and\s+|und\s+|et\s+|y\s+|e\s+|en\s+)?|\s+(?:and|und)\s+(?=\d)/u);
  const ranged = rows.map((row) => ({ row, m: RANGE.exec(row) })).filter((r): r is { row: string; m: RegExpExecArray } => r.m !== null);
  if (ranged.length < 2) return null;
  const first = ranged[0]!;
  const hit = ranged.find(({ m }) => value >= num(m[1]!) && value < num(m[2]!)) ?? ranged.find(({ m }) => value === num(m[2]!));
  if (!hit) return null;
  if (hit === first) return `${first.row}.`;
  // The table's first row is the model sentence: its range and its last word (the value) swapped for the row's.
  const value0 = /(\S+)$/.exec(first.row)?.[1];
  const valueHit = /(\S+)$/.exec(hit.row)?.[1];
  if (!value0 || !valueHit || first.row.endsWith(first.m[0])) return `${hit.row}.`;
  const phrased = first.row.replace(first.m[0], hit.m[0].trim() + (hit.m[3] ? '' : (first.m[3] ?? ''))).replace(/\S+$/, valueHit);
  return `${phrased[0]!.toUpperCase()}${phrased.slice(1)}.`;
}
