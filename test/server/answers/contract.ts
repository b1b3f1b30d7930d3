// The contract of the PAL's answers without a language model, as a readable list: a small knowledge
// base (a bike shop's FAQ, as in the demo), and questions of three kinds —
//   fact:      the knowledge answers it; the reply must contain `says` (and not `notSays`), in ≤ 2 sentences;
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
Pay in 3, 6 or 12 monthly instalments with no interest on bikes over 900 euros.`,
};

export type Case =
  | { kind: 'fact'; ask: string; says: RegExp; notSays?: RegExp }
  | { kind: 'near-miss'; ask: string }
  | { kind: 'outside'; ask: string };

export const CASES: Case[] = [
  // Facts: asked as the FAQ puts it, and in other words.
  { kind: 'fact', ask: 'How long does delivery take?', says: /3 to 5 working days/ },
  { kind: 'fact', ask: 'How much does shipping cost?', says: /29 euros/ },
  { kind: 'fact', ask: 'Do the bikes come assembled?', says: /95% assembled/ },
  { kind: 'fact', ask: 'Which sizes does the Trail 29 come in?', says: /S, M, L and XL/ },
  { kind: 'fact', ask: "I'm 185 cm tall, which frame size should I get?", says: /\bL\b/, notSays: /160 to 170|\bXL\b|\bM\b/ },
  { kind: 'fact', ask: 'I am 165 cm, what size fits me?', says: /\bS\b/, notSays: /180 to 190|\bXL\b/ },
  { kind: 'fact', ask: 'Where can I do a test ride?', says: /Lisbon and Porto/ },
  { kind: 'fact', ask: 'Can I return my bike?', says: /30 days/ },
  { kind: 'fact', ask: 'What warranty do the frames have?', says: /lifetime warranty/ },
  { kind: 'fact', ask: 'Can I pay in instalments?', says: /instalments/ },
  { kind: 'fact', ask: 'Do you sell gravel bikes?', says: /gravel bikes/ },

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
