// The contract of the PAL's answers without a language model, as a readable list: a small knowledge
// base (a bike shop's FAQ, as in the demo), and questions of three kinds —
//   fact:      the knowledge answers it; the reply must contain `says` (and not `notSays`), in ≤ 2 sentences;
//              every fact is asked in three phrasings: the FAQ's words, and visitors' own (other
//              inflections, a verb for a noun, "pay extra" for "at no charge", a synonym);
//   near-miss: close to something known but not covered ("e-bikes" when only bikes are sold);
//   outside:   nothing in the knowledge is about it.
// A near-miss or outside question must get the honest "not sure" line, never the nearest fact.

export const KNOWLEDGE = {
  document_name: 'Northwind Bikes FAQ',
  content: `# Northwind Bikes — frequently asked questions

Home · Shop · Contact

## Bikes
We sell city, trail and gravel bikes, built in our Porto workshop.

## Delivery
We deliver across Europe in 3 to 5 working days. Delivery is free for orders over 500 euros; otherwise it costs 29 euros. Bikes arrive 95% assembled with the tools you need.

## Sizes
The Trail 29 comes in sizes S, M, L and XL. Riders from 160 to 170 cm usually ride S, 170 to 180 cm M, 180 to 190 cm L, and taller riders XL.

## Test rides
Test rides are free at our Lisbon and Porto stores, Monday to Saturday from 10:00 to 18:00. Book a slot with our video guide or by phone.

## Returns and warranty
You can return an unridden bike within 30 days for a full refund. Frames carry a lifetime warranty; components carry two years.

## Financing
Pay in 3, 6 or 12 monthly instalments with no interest on bikes over 900 euros.

## Lights
Every bike ships with front and rear lights at no charge.`,
};

export type Case =
  { kind: 'fact'; ask: string; says: RegExp; notSays?: RegExp } | { kind: 'near-miss'; ask: string } | { kind: 'outside'; ask: string };

/** A fact of the knowledge and three ways visitors ask for it. */
export interface Fact {
  says: RegExp;
  notSays?: RegExp;
  asks: [string, string, string];
}

export const FACTS: Fact[] = [
  {
    says: /3 to 5 working days/,
    asks: ['How long does delivery take?', 'How many days until my bike is delivered?', 'How quickly do you deliver?'],
  },
  { says: /29 euros/, asks: ['How much does shipping cost?', 'What is the delivery fee?', 'Do I have to pay extra for delivery?'] },
  {
    says: /95% assembled/,
    asks: ['Do the bikes come assembled?', 'Will I need to assemble the bike myself?', 'Is the bike delivered fully assembled?'],
  },
  {
    says: /S, M, L and XL/,
    asks: ['Which sizes does the Trail 29 come in?', 'What sizes is the Trail 29 made in?', 'In which size can I get a Trail 29?'],
  },
  {
    says: /\bL\b/,
    notSays: /160 to 170|\bXL\b|\bM\b/,
    asks: [
      "I'm 185 cm tall, which frame size should I get?",
      'What frame size for a rider of 185 cm?',
      'My height is 185 cm, which size fits?',
    ],
  },
  {
    says: /\bS\b/,
    notSays: /180 to 190|\bXL\b/,
    asks: ['I am 165 cm, what size fits me?', 'Which size for someone who is 165 cm tall?', 'What size should a 165 cm rider choose?'],
  },
  {
    says: /Lisbon and Porto/,
    asks: ['Where can I do a test ride?', 'Where can I try a bike before buying?', 'Which stores offer test rides?'],
  },
  { says: /30 days/, asks: ['Can I return my bike?', 'Is it possible to get a refund?', 'What is your returns policy?'] },
  {
    says: /lifetime warranty/,
    asks: ['What warranty do the frames have?', 'Is there a guarantee on the frame?', 'How long is the frame warranty?'],
  },
  { says: /instalments/, asks: ['Can I pay in instalments?', 'Do you offer monthly payments?', 'Is financing available?'] },
  {
    says: /gravel bikes/,
    asks: ['Do you sell gravel bikes?', 'Can I buy a gravel bike from you?', 'Are gravel bikes something you sell?'],
  },
  {
    says: /lights at no charge/,
    asks: ['Do the lights cost extra?', 'Will I be charged for the lights?', 'Are lights included for free?'],
  },
];

export const CASES: Case[] = [
  // Facts: asked as the FAQ puts it, and in other words.
  ...FACTS.flatMap((f): Case[] => f.asks.map((ask) => ({ kind: 'fact', ask, says: f.says, ...(f.notSays ? { notSays: f.notSays } : {}) }))),

  // Near-misses: the nearest fact would read as a yes.
  { kind: 'near-miss', ask: 'Do you sell e-bikes?' },
  { kind: 'near-miss', ask: 'Do you sell helmets?' },
  { kind: 'near-miss', ask: 'Do you rent bikes?' },
  { kind: 'near-miss', ask: 'Do you have a store in Madrid?' },
  { kind: 'near-miss', ask: 'Do you deliver to the United States?' },
  { kind: 'near-miss', ask: 'Is there a warranty on batteries?' },
  { kind: 'near-miss', ask: 'Can I book a test ride in Berlin?' },

  // Outside the knowledge altogether.
  { kind: 'outside', ask: "What's the weather like tomorrow?" },
  { kind: 'outside', ask: 'Who won the football match yesterday?' },
  { kind: 'outside', ask: 'Can you recommend a good restaurant nearby?' },
  { kind: 'outside', ask: 'What is the meaning of life?' },
];
