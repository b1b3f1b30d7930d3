// The question set of issue 54: questions a visitor types, over three knowledge documents (the demo
// shop's FAQ as the PAL reads it, a dental practice's patient page and a software product's help
// centre), each with what the reply must hold:
//   says:   facts the reply must state (every one; a two-part question lists one per part);
//   unsure: the honest "not sure" line (no fact of the knowledge offered);
//   partUnsure: for a two-part question, the kind of the part the knowledge cannot answer.
// Kinds: direct (the document's words), reworded (the visitor's own), two-part, near-miss (close to a
// fact but not covered: the nearest fact would be wrong), unknown (nothing in the knowledge).
// Questions in German, French and Japanese are asked of the same English documents: the fact is quoted
// and the frame is in the visitor's language (`lang`).
import { readFileSync } from 'node:fs';
import { extractHtml } from '../../../../../src/server/resources/documents/extract/html.js';

export type Kind = 'direct' | 'reworded' | 'two-part' | 'near-miss' | 'unknown';

export interface Question {
  doc: 'shop' | 'dental' | 'software';
  kind: Kind;
  ask: string;
  lang: 'en' | 'de' | 'fr' | 'ja';
  says?: RegExp[];
  /** Must not appear: the wrong fact the question used to get. */
  notSays?: RegExp;
  unsure?: true;
  partUnsure?: 'price' | 'time' | 'place' | 'other';
}

/** The demo's knowledge document, as the service extracts it from demo/site/knowledge.html. */
export const SHOP = {
  document_name: 'Northwind Bikes FAQ',
  content: extractHtml(readFileSync(new URL('../../../../../demo/site/knowledge.html', import.meta.url), 'utf8')).text,
};

export const DENTAL = {
  document_name: 'Harbour Dental',
  content: `# Harbour Dental — patient information

## Opening hours
The practice is open Monday to Friday from 8:00 to 18:00, and on Saturdays from 9:00 to 13:00.

## Check-ups and cleaning
A check-up costs 45 euros and takes about 30 minutes. A professional cleaning costs 90 euros.

## Emergencies
If you are in pain, call us before 10:00 and we will see you the same day.

## Cancellations
Please cancel at least 24 hours before your appointment; later cancellations are charged 20 euros.

## Finding us
We are at Kaiserstraße 14 in Frankfurt, on the second floor. Parking is free in the courtyard behind the building.

## Insurance
We bill public and private health insurers directly.`,
};

export const SOFTWARE = {
  document_name: 'Ledgerly help centre',
  content: `# Ledgerly help centre

## Plans and prices
The Starter plan costs 9 euros a month for one user. The Team plan costs 29 euros a month for up to ten users.

## Free trial
Every plan starts with a free trial of 14 days; no credit card is needed.

## Where your data lives
Your data is stored in data centres in Frankfurt and Dublin and never leaves the EU.

## Exporting
You can export all invoices and reports as CSV or PDF at any time.

## Support
Our support team answers by chat and email on weekdays from 9:00 to 17:00 CET.

## Cancelling
You can cancel your subscription at any time; it ends at the close of the current billing month.`,
};

export const DOCUMENTS = { shop: SHOP, dental: DENTAL, software: SOFTWARE };

const DAYS = /3 to 5 working days/;
const SHIPPING = /29 euros/;

export const QUESTIONS: Question[] = [
  // The demo shop, in English: the three wrong answers first.
  { doc: 'shop', kind: 'near-miss', lang: 'en', ask: 'How much does the Trail 29 cost?', unsure: true },
  { doc: 'shop', kind: 'reworded', lang: 'en', ask: 'When would a bike ordered today reach my house?', says: [DAYS], notSays: SHIPPING },
  { doc: 'shop', kind: 'two-part', lang: 'en', ask: 'How long does delivery take, and what does it cost?', says: [DAYS, SHIPPING] },
  { doc: 'shop', kind: 'direct', lang: 'en', ask: 'How long does delivery take?', says: [DAYS], notSays: SHIPPING },
  { doc: 'shop', kind: 'reworded', lang: 'en', ask: 'What does shipping cost?', says: [SHIPPING], notSays: DAYS },
  { doc: 'shop', kind: 'reworded', lang: 'en', ask: 'Is delivery free?', says: [/free for orders over 500 euros/] },
  { doc: 'shop', kind: 'direct', lang: 'en', ask: 'Which sizes does the Trail 29 come in?', says: [/S, M, L and XL/] },
  { doc: 'shop', kind: 'reworded', lang: 'en', ask: "I'm 185 cm tall, which size should I get?", says: [/\bL\b/], notSays: /\bXL\b/ },
  { doc: 'shop', kind: 'direct', lang: 'en', ask: 'Where can I do a test ride?', says: [/Lisbon and Porto/] },
  { doc: 'shop', kind: 'reworded', lang: 'en', ask: 'When can I come by for a test ride?', says: [/Monday to Saturday/] },
  { doc: 'shop', kind: 'reworded', lang: 'en', ask: 'How much is a test ride?', says: [/Test rides are free/] },
  {
    doc: 'shop',
    kind: 'two-part',
    lang: 'en',
    ask: 'When and where can I test-ride a bike?',
    says: [/Lisbon and Porto/, /Monday to Saturday/],
  },
  { doc: 'shop', kind: 'direct', lang: 'en', ask: 'Can I return my bike?', says: [/30 days/] },
  { doc: 'shop', kind: 'reworded', lang: 'en', ask: 'How long are components covered?', says: [/two years/] },
  { doc: 'shop', kind: 'direct', lang: 'en', ask: 'Can I pay in instalments?', says: [/instalments/] },
  {
    doc: 'shop',
    kind: 'two-part',
    lang: 'en',
    ask: 'How long does delivery take and how much does the Trail 29 cost?',
    says: [DAYS],
    partUnsure: 'price',
    notSays: SHIPPING,
  },
  { doc: 'shop', kind: 'near-miss', lang: 'en', ask: 'Do you sell e-bikes?', unsure: true },
  { doc: 'shop', kind: 'near-miss', lang: 'en', ask: 'Do you deliver to the United States?', unsure: true },
  { doc: 'shop', kind: 'near-miss', lang: 'en', ask: 'How much does the Trail 29 weigh?', unsure: true },
  { doc: 'shop', kind: 'unknown', lang: 'en', ask: "What's the weather like tomorrow?", unsure: true },

  // A dental practice, in English.
  { doc: 'dental', kind: 'direct', lang: 'en', ask: 'What are your opening hours?', says: [/Monday to Friday from 8:00 to 18:00/] },
  { doc: 'dental', kind: 'reworded', lang: 'en', ask: 'Are you open on Saturdays?', says: [/Saturdays from 9:00 to 13:00/] },
  { doc: 'dental', kind: 'direct', lang: 'en', ask: 'How much does a check-up cost?', says: [/45 euros/] },
  { doc: 'dental', kind: 'reworded', lang: 'en', ask: 'How long will my check-up take?', says: [/30 minutes/] },
  {
    doc: 'dental',
    kind: 'two-part',
    lang: 'en',
    ask: 'What does a cleaning cost, and how long does it take?',
    says: [/90 euros/],
    partUnsure: 'time',
    notSays: /30 minutes/,
  },
  { doc: 'dental', kind: 'reworded', lang: 'en', ask: 'Where is your practice?', says: [/Kaiserstraße 14 in Frankfurt/] },
  { doc: 'dental', kind: 'reworded', lang: 'en', ask: 'Do I have to pay for parking?', says: [/Parking is free/] },
  { doc: 'dental', kind: 'reworded', lang: 'en', ask: 'What happens if I cancel late?', says: [/20 euros/] },
  { doc: 'dental', kind: 'reworded', lang: 'en', ask: 'I have a toothache, can you see me today?', says: [/same day/] },
  { doc: 'dental', kind: 'unknown', lang: 'en', ask: 'Do you do root canal treatment?', unsure: true },
  { doc: 'dental', kind: 'near-miss', lang: 'en', ask: 'How much is a filling?', unsure: true },

  // A software product, in English.
  {
    doc: 'software',
    kind: 'direct',
    lang: 'en',
    ask: 'How much is the Team plan?',
    says: [/29 euros a month/],
    notSays: /9 euros a month for one/,
  },
  { doc: 'software', kind: 'direct', lang: 'en', ask: 'How long is the free trial?', says: [/14 days/] },
  { doc: 'software', kind: 'reworded', lang: 'en', ask: 'Where do you keep my data?', says: [/Frankfurt and Dublin/] },
  { doc: 'software', kind: 'reworded', lang: 'en', ask: 'Can I download my invoices as a spreadsheet?', says: [/CSV/] },
  { doc: 'software', kind: 'reworded', lang: 'en', ask: 'When can I reach support?', says: [/weekdays from 9:00 to 17:00/] },
  {
    doc: 'software',
    kind: 'two-part',
    lang: 'en',
    ask: 'What does the Team plan cost and where is my data stored?',
    says: [/29 euros a month/, /Frankfurt and Dublin/],
  },
  {
    doc: 'software',
    kind: 'two-part',
    lang: 'en',
    ask: 'Can I cancel, and when does my subscription end?',
    says: [/close of the current billing month/],
  },
  { doc: 'software', kind: 'near-miss', lang: 'en', ask: 'How much does the Enterprise plan cost?', unsure: true },
  { doc: 'software', kind: 'unknown', lang: 'en', ask: 'Is there a mobile app?', unsure: true },

  // German, of the English documents.
  { doc: 'shop', kind: 'direct', lang: 'de', ask: 'Wie lange dauert die Lieferung?', says: [DAYS], notSays: SHIPPING },
  { doc: 'shop', kind: 'near-miss', lang: 'de', ask: 'Wie lange dauert die Lieferung nach Berlin?', says: [DAYS] },
  { doc: 'shop', kind: 'direct', lang: 'de', ask: 'Was kostet der Versand?', says: [SHIPPING] },
  { doc: 'shop', kind: 'direct', lang: 'de', ask: 'Welche Größen gibt es beim Trail 29?', says: [/S, M, L and XL/] },
  { doc: 'shop', kind: 'reworded', lang: 'de', ask: 'Wo kann ich eine Probefahrt machen?', says: [/Lisbon and Porto/] },
  { doc: 'shop', kind: 'direct', lang: 'de', ask: 'Kann ich mein Fahrrad zurückgeben?', says: [/30 days/] },
  { doc: 'shop', kind: 'reworded', lang: 'de', ask: 'Kann ich in Raten zahlen?', says: [/instalments/] },
  { doc: 'shop', kind: 'two-part', lang: 'de', ask: 'Wie lange dauert die Lieferung und was kostet sie?', says: [DAYS, SHIPPING] },
  { doc: 'shop', kind: 'near-miss', lang: 'de', ask: 'Was kostet das Trail 29?', unsure: true },
  { doc: 'shop', kind: 'near-miss', lang: 'de', ask: 'Verkaufen Sie auch Helme?', unsure: true },
  { doc: 'dental', kind: 'reworded', lang: 'de', ask: 'Wann haben Sie geöffnet?', says: [/Monday to Friday/] },
  { doc: 'software', kind: 'reworded', lang: 'de', ask: 'Wo werden meine Daten gespeichert?', says: [/Frankfurt and Dublin/] },

  // French.
  { doc: 'shop', kind: 'direct', lang: 'fr', ask: 'Combien de temps dure la livraison ?', says: [DAYS], notSays: SHIPPING },
  { doc: 'shop', kind: 'direct', lang: 'fr', ask: 'Combien coûte la livraison ?', says: [SHIPPING] },
  { doc: 'shop', kind: 'direct', lang: 'fr', ask: 'Quelles sont les tailles du Trail 29 ?', says: [/S, M, L and XL/] },
  { doc: 'shop', kind: 'reworded', lang: 'fr', ask: 'Où est-ce que je peux faire un essai ?', says: [/Lisbon and Porto/] },
  { doc: 'shop', kind: 'direct', lang: 'fr', ask: 'Est-ce que je peux retourner mon vélo ?', says: [/30 days/] },
  { doc: 'shop', kind: 'reworded', lang: 'fr', ask: 'Est-ce que je peux payer en plusieurs fois ?', says: [/instalments/] },
  {
    doc: 'shop',
    kind: 'two-part',
    lang: 'fr',
    ask: 'Combien de temps dure la livraison et combien coûte-t-elle ?',
    says: [DAYS, SHIPPING],
  },
  { doc: 'shop', kind: 'near-miss', lang: 'fr', ask: 'Combien coûte le Trail 29 ?', unsure: true },
  { doc: 'shop', kind: 'unknown', lang: 'fr', ask: 'Quel temps fera-t-il demain ?', unsure: true },
  { doc: 'shop', kind: 'near-miss', lang: 'fr', ask: 'Vendez-vous des vélos électriques ?', unsure: true },
  { doc: 'dental', kind: 'direct', lang: 'fr', ask: 'Quels sont vos horaires ?', says: [/Monday to Friday/] },
  { doc: 'software', kind: 'direct', lang: 'fr', ask: 'Combien coûte le plan Team ?', says: [/29 euros a month/] },

  // Japanese.
  { doc: 'shop', kind: 'direct', lang: 'ja', ask: '配送にはどのくらい時間がかかりますか？', says: [DAYS], notSays: SHIPPING },
  { doc: 'shop', kind: 'reworded', lang: 'ja', ask: '何日で届きますか？', says: [DAYS] },
  { doc: 'shop', kind: 'direct', lang: 'ja', ask: '送料はいくらですか？', says: [SHIPPING] },
  { doc: 'shop', kind: 'direct', lang: 'ja', ask: 'Trail 29のサイズは何がありますか？', says: [/S, M, L and XL/] },
  { doc: 'shop', kind: 'direct', lang: 'ja', ask: '試乗はどこでできますか？', says: [/Lisbon and Porto/] },
  { doc: 'shop', kind: 'direct', lang: 'ja', ask: '返品はできますか？', says: [/30 days/] },
  { doc: 'shop', kind: 'direct', lang: 'ja', ask: '分割払いはできますか？', says: [/instalments/] },
  { doc: 'shop', kind: 'two-part', lang: 'ja', ask: '配送にはどのくらい時間がかかりますか？送料はいくらですか？', says: [DAYS, SHIPPING] },
  { doc: 'shop', kind: 'near-miss', lang: 'ja', ask: 'Trail 29はいくらですか？', unsure: true },
  { doc: 'shop', kind: 'near-miss', lang: 'ja', ask: '電動自転車はありますか？', unsure: true },
  { doc: 'dental', kind: 'direct', lang: 'ja', ask: '営業時間を教えてください。', says: [/Monday to Friday/] },
];
