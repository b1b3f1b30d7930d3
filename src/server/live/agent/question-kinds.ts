// What a question asks for (a price, a time, a place) and what kind of fact a sentence holds, so a
// reply without a language model states only a fact of the kind asked: "How much does the Trail 29
// cost?" is not answered by the sizes it comes in, "When would it arrive?" not by what delivery costs.
// Cue words in the languages the PAL speaks; a question that asks for no such kind (yes/no, which,
// what) is matched on its topic alone.

export type FactKind = 'price' | 'time' | 'place' | 'weight' | 'distance';

/** A word or phrase that is not part of a longer word (\b is ASCII-only, even with the u flag). */
export const w = (alternatives: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}])`, 'iu');

// "How much" asks a price unless it asks a weight, a distance or a time.
const HOW_MUCH = /(?<![\p{L}])how much(?![\p{L}])(?!.*\b(?:weigh|heavy|weight|far|long|time|range|power|battery|storage|space|data)\b)/iu;

const ASKS_PRICE = w(
  [
    'costs?',
    'costing',
    'prices?',
    'pricing',
    'priced',
    'fees?',
    'charged?',
    'charges',
    'pay extra',
    'pay for',
    '(?:have|need) to pay',
    'expensive',
    'cheap(?:er|est)?',
    'afford',
    'free',
    'kostet',
    'kosten',
    'preise?',
    'gebühre?n?',
    'teuer',
    'versandkosten',
    'lieferkosten',
    'bezahlen',
    'kostenlos',
    'gratis',
    'umsonst',
    'aufpreis',
    'co[uû]te?n?t?',
    'co[uû]ts?',
    'prix',
    'tarifs?',
    'frais',
    'payer',
    'cher',
    'gratuite?s?',
    'cuesta',
    'cuestan',
    'precios?',
    'coste',
    'costo',
    'tarifas?',
    'pagar',
    'caro',
    'gratuita?o?s?',
    'costa',
    'costano',
    'prezzi',
    'prezzo',
    'tariffa',
    'pagare',
    'custa',
    'custam',
    'preços?',
    'custo',
    'kost',
    'prijs',
    'prijzen',
    'tarief',
    'betalen',
    'duur',
    'kostar',
    'pris',
    'avgift',
    'koster',
    'gebyr',
    'maksaa',
    'hinta',
    'hinnat',
    'kosztuje',
    'cena',
    'ceny',
    'opłata',
    'stojí',
    'poplatek',
    'стоит',
    'стоимость',
    'цена',
    'цены',
    'коштує',
    'ціна',
    'вартість',
    'fiyat',
    'fiyatı',
    'ücret',
    'ücreti',
  ].join('|'),
);
const ASKS_PRICE_CJK = /いくら|値段|価格|料金|費用|送料|多少钱|价格|价钱|费用|运费|얼마|가격|비용|요금|배송비/u;

const ASKS_TIME = w(
  [
    'when',
    'how long',
    'how soon',
    'how quickly',
    'how fast',
    'what time',
    'until when',
    'by when',
    'how many (?:days|weeks|hours|minutes|months|years)',
    'wann',
    'wie lange',
    'wie schnell',
    'wie bald',
    'bis wann',
    'ab wann',
    'wie spät',
    'um wie viel uhr',
    'wie viele (?:tage|wochen|stunden|minuten|monate|jahre)',
    'dauert',
    'dauern',
    'lieferzeit(?:en)?',
    'dauer',
    'frist',
    'quand',
    'combien de (?:temps|jours|semaines|heures|minutes|mois)',
    'à quelle heure',
    'délais?',
    'en combien de temps',
    'cuándo',
    'cuanto tiempo',
    'cuánto tiempo',
    'cuánto tarda',
    'cuántos días',
    'a qué hora',
    'plazo',
    'tarda',
    'quando',
    'quanto tempo',
    'quanto ci vuole',
    'quanti giorni',
    'a che ora',
    'quantos dias',
    'a que horas',
    'prazo',
    'demora',
    'wanneer',
    'hoe lang',
    'hoe snel',
    'hoe laat',
    'hoeveel dagen',
    'duurt',
    'när',
    'hur lång tid',
    'hur länge',
    'hvornår',
    'hvor lang tid',
    'hvor længe',
    'når',
    'hvor lenge',
    'milloin',
    'kauanko',
    'kuinka kauan',
    'kuinka pitkään',
    'kiedy',
    'jak długo',
    'ile czasu',
    'ile dni',
    'kdy',
    'jak dlouho',
    'kolik dní',
    'когда',
    'как долго',
    'сколько времени',
    'сколько дней',
    'коли',
    'як довго',
    'скільки часу',
    'скільки днів',
    'ne zaman',
    'ne kadar sürer',
    'kaç gün',
    'kaç saat',
  ].join('|'),
);
const ASKS_TIME_CJK =
  /いつ|何日|何時|何週間|日数|期間|どのくらい(?:の)?(?:時間|日|期間)|どれくらい(?:の)?(?:時間|日)|什么时候|多久|多长时间|几天|几点|언제|며칠|몇 시|얼마나 걸/u;

const ASKS_PLACE = w(
  [
    'where',
    'what address',
    'which (?:city|cities|country|countries|town|address)',
    'wo',
    'wohin',
    'woher',
    'welche[rnm]? (?:stadt|adresse|land)',
    'où',
    'quelle adresse',
    'dónde',
    'adónde',
    'dove',
    'onde',
    'waar',
    'var finns',
    'vart',
    'missä',
    'mistä',
    'mihin',
    'gdzie',
    'kde',
    'где',
    'куда',
    'де',
    'куди',
    'nerede',
    'nereye',
  ].join('|'),
);
const ASKS_PLACE_CJK = /どこ|哪里|哪儿|在哪|어디/u;
// Scandinavian "hvor" is "where" on its own, "how" before an adjective.
const HVOR = /(?<![\p{L}])hvor(?![\p{L}])(?!\s+(?:lang|længe|lenge|meget|mye|mange|mycket|ofte|stor|gammel))/iu;

// A weight or a distance: "How much does it weigh?" is not answered by the sizes it comes in.
const ASKS_WEIGHT = w(
  'weigh(?:s|t)?|how heavy|wiegt|wie schwer|gewicht|pèse|poids|pesa|peso|pesa|weegt|gewicht|väger|vejer|veier|paino|waży|váží|весит|важить|ağırlı\\p{L}*',
);
const ASKS_WEIGHT_CJK = /重さ|重量|多重|무게/u;
const ASKS_DISTANCE = w(
  'how far|(?<!price )(?<!size )(?:battery |the |its |a )range|reichweite|wie weit|autonomie|portée|distance|distancia|autonomía|autonomia|distanza|bereik|hoe ver|räckvidd|rækkevidde|rekkevidde|toimintamatka|zasięg|dojezd|запас хода|дальність',
);
const ASKS_DISTANCE_CJK = /航続距離|距離|続航|多远|续航|주행 거리|거리/u;

/** The kinds of fact `question` asks for (none for yes/no, which and what questions). */
export function askedKinds(question: string, lang = 'en'): FactKind[] {
  const q = question.toLowerCase();
  const kinds: FactKind[] = [];
  const time = ASKS_TIME.test(q) || ASKS_TIME_CJK.test(q);
  // "Ne kadar sürer" and "どのくらいかかりますか" ask a time; "ne kadar" alone a price.
  const price = HOW_MUCH.test(q) || ASKS_PRICE.test(q) || ASKS_PRICE_CJK.test(q) || (/(?<![\p{L}])ne kadar(?![\p{L}])/u.test(q) && !time);
  if (price) kinds.push('price');
  if (time) kinds.push('time');
  if (ASKS_PLACE.test(q) || ASKS_PLACE_CJK.test(q) || (['da', 'nb', 'no'].includes(lang) && HVOR.test(q))) kinds.push('place');
  if (ASKS_WEIGHT.test(q) || ASKS_WEIGHT_CJK.test(q)) kinds.push('weight');
  if (ASKS_DISTANCE.test(q) || ASKS_DISTANCE_CJK.test(q)) kinds.push('distance');
  return kinds;
}
