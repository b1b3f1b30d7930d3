// What a question asks for (a price, a time, a place) and what kind of fact a sentence holds, so a
// reply without a language model states only a fact of the kind asked: "How much does the Trail 29
// cost?" is not answered by the sizes it comes in, "When would it arrive?" not by what delivery costs.
// Cue words in the languages the PAL speaks; a question that asks for no such kind (yes/no, which,
// what) is matched on its topic alone.

export type FactKind = 'price' | 'time' | 'place' | 'weight' | 'distance';

/** A word or phrase that is not part of a longer word (\b is ASCII-only, even with the u flag). */
const w = (alternatives: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}])`, 'iu');

// "How much" asks a price unless it asks a weight, a distance or a time.
const HOW_MUCH = /(?<![\p{L}])how much(?![\p{L}])(?!.*\b(?:weigh|heavy|weight|far|long|time|range|power|battery|storage|space|data)\b)/iu;

const ASKS_PRICE = w(
  [
    'costs?', 'costing', 'prices?', 'pricing', 'priced', 'fees?', 'charged?', 'charges', 'pay extra', 'pay for', '(?:have|need) to pay', 'expensive', 'cheap(?:er|est)?', 'afford', 'free',
    'kostet', 'kosten', 'preise?', 'gebühre?n?', 'teuer', 'versandkosten', 'lieferkosten', 'bezahlen', 'kostenlos', 'gratis', 'umsonst', 'aufpreis',
    'co[uû]te?n?t?', 'co[uû]ts?', 'prix', 'tarifs?', 'frais', 'payer', 'cher', 'gratuite?s?',
    'cuesta', 'cuestan', 'precios?', 'coste', 'costo', 'tarifas?', 'pagar', 'caro', 'gratuita?o?s?',
    'costa', 'costano', 'prezzi', 'prezzo', 'tariffa', 'pagare',
    'custa', 'custam', 'preços?', 'custo',
    'kost', 'prijs', 'prijzen', 'tarief', 'betalen', 'duur',
    'kostar', 'pris', 'avgift', 'koster', 'gebyr', 'maksaa', 'hinta', 'hinnat', 'kosztuje', 'cena', 'ceny', 'opłata', 'stojí', 'poplatek',
    'стоит', 'стоимость', 'цена', 'цены', 'коштує', 'ціна', 'вартість', 'fiyat', 'fiyatı', 'ücret', 'ücreti',
  ].join('|'),
);
const ASKS_PRICE_CJK = /いくら|値段|価格|料金|費用|送料|多少钱|价格|价钱|费用|运费|얼마|가격|비용|요금|배송비/u;

const ASKS_TIME = w(
  [
    'when', 'how long', 'how soon', 'how quickly', 'how fast', 'what time', 'until when', 'by when', 'how many (?:days|weeks|hours|minutes|months|years)',
    'wann', 'wie lange', 'wie schnell', 'wie bald', 'bis wann', 'ab wann', 'wie spät', 'um wie viel uhr', 'wie viele (?:tage|wochen|stunden|minuten|monate|jahre)', 'dauert', 'dauern', 'lieferzeit(?:en)?', 'dauer', 'frist',
    'quand', 'combien de (?:temps|jours|semaines|heures|minutes|mois)', 'à quelle heure', 'délais?', 'en combien de temps',
    'cuándo', 'cuanto tiempo', 'cuánto tiempo', 'cuánto tarda', 'cuántos días', 'a qué hora', 'plazo', 'tarda',
    'quando', 'quanto tempo', 'quanto ci vuole', 'quanti giorni', 'a che ora', 'quantos dias', 'a que horas', 'prazo', 'demora',
    'wanneer', 'hoe lang', 'hoe snel', 'hoe laat', 'hoeveel dagen', 'duurt',
    'när', 'hur lång tid', 'hur länge', 'hvornår', 'hvor lang tid', 'hvor længe', 'når', 'hvor lenge', 'milloin', 'kauanko', 'kuinka kauan', 'kuinka pitkään',
    'kiedy', 'jak długo', 'ile czasu', 'ile dni', 'kdy', 'jak dlouho', 'kolik dní',
    'когда', 'как долго', 'сколько времени', 'сколько дней', 'коли', 'як довго', 'скільки часу', 'скільки днів',
    'ne zaman', 'ne kadar sürer', 'kaç gün', 'kaç saat',
  ].join('|'),
);
const ASKS_TIME_CJK = /いつ|何日|何時|何週間|日数|期間|どのくらい(?:の)?(?:時間|日|期間)|どれくらい(?:の)?(?:時間|日)|什么时候|多久|多长时间|几天|几点|언제|며칠|몇 시|얼마나 걸/u;

const ASKS_PLACE = w(
  [
    'where', 'what address', 'which (?:city|cities|country|countries|town|address)',
    'wo', 'wohin', 'woher', 'welche[rnm]? (?:stadt|adresse|land)', 'où', 'quelle adresse', 'dónde', 'adónde', 'dove', 'onde', 'waar',
    'var finns', 'vart', 'missä', 'mistä', 'mihin', 'gdzie', 'kde', 'где', 'куда', 'де', 'куди', 'nerede', 'nereye',
  ].join('|'),
);
const ASKS_PLACE_CJK = /どこ|哪里|哪儿|在哪|어디/u;
// Scandinavian "hvor" is "where" on its own, "how" before an adjective.
const HVOR = /(?<![\p{L}])hvor(?![\p{L}])(?!\s+(?:lang|længe|lenge|meget|mye|mange|mycket|ofte|stor|gammel))/iu;

// A weight or a distance: "How much does it weigh?" is not answered by the sizes it comes in.
const ASKS_WEIGHT = w('weigh(?:s|t)?|how heavy|wiegt|wie schwer|gewicht|pèse|poids|pesa|peso|pesa|weegt|gewicht|väger|vejer|veier|paino|waży|váží|весит|важить|ağırlı\\p{L}*');
const ASKS_WEIGHT_CJK = /重さ|重量|多重|무게/u;
const ASKS_DISTANCE = w('how far|(?<!price )(?<!size )(?:battery |the |its |a )range|reichweite|wie weit|autonomie|portée|distance|distancia|autonomía|autonomia|distanza|bereik|hoe ver|räckvidd|rækkevidde|rekkevidde|toimintamatka|zasięg|dojezd|запас хода|дальність');
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

// --- What a sentence holds ---

const MONEY = /[€$£¥₹₩₽]|(?<![\p{L}])(?:eur|euros?|usd|dollars?|pounds?|cents?|chf|francs?|kr|sek|nok|dkk|zł|pln|kč|czk|руб|грн|tl|yen|円|元|원)(?![\p{L}])/iu;
const FREE_OR_PRICED = w(
  [
    'free', 'no charge', 'no extra charge', 'no interest', 'at no (?:extra |additional )?cost', 'included', 'costs?', 'prices?', 'fees?', 'charged?',
    'kostenlos', 'kostenfrei', 'gratis', 'umsonst', 'inklusive', 'kostet', 'kosten', 'preise?', 'gebühre?n?',
    'gratuite?s?', 'offerte?s?', 'co[uû]te?n?t?', 'prix', 'tarifs?', 'frais', 'sin coste', 'precios?', 'cuesta', 'gratuito', 'prezzo', 'costa', 'grátis', 'preço', 'custa',
    'prijs', 'kost', 'kosten', 'pris', 'koster', 'maksaa', 'hinta', 'ilmainen', 'cena', 'kosztuje', 'bezpłatn\\p{L}*', 'zdarma', 'бесплатн\\p{L}*', 'стоит', 'цена', 'безкоштовн\\p{L}*', 'ücretsiz', 'fiyat',
  ].join('|'),
);
const PRICE_CJK = /無料|料金|円|価格|送料|免费|价格|元|무료|가격|원/u;

const UNITS = [
  'seconds?', 'minutes?', 'mins?', 'hours?', 'hrs?', 'days?', 'weeks?', 'months?', 'years?', 'working days?', 'business days?', 'weekdays?',
  'sekunden', 'minuten', 'stunden?', 'tagen?', 'werktagen?', 'wochen?', 'monate?n?', 'jahre?n?',
  'secondes?', 'heures?', 'jours?(?: ouvrés| ouvrables)?', 'semaines?', 'mois', 'ans', 'années?',
  'segundos?', 'minutos?', 'horas?', 'días?', 'dias?', 'semanas?', 'mes(?:es)?', 'meses', 'años?', 'anos?',
  'minuti', 'ore', 'giorni', 'giorno', 'settimane?', 'mesi', 'mese', 'anni', 'anno',
  'uur', 'uren', 'dagen', 'dag', 'weken', 'maanden?', 'jaar', 'jaren', 'werkdagen',
  'timmar', 'dagar', 'veckor', 'månader', 'år', 'timer', 'dage', 'uger', 'måneder', 'uker', 'tuntia', 'päivää', 'viikkoa', 'kuukautta', 'vuotta',
  'godzin\\p{L}*', 'dni', 'tygodni\\p{L}*', 'miesi\\p{L}*', 'lat', 'hodin\\p{L}*', 'dnů', 'dny', 'týdn\\p{L}*', 'měsíc\\p{L}*', 'let',
  'час\\p{L}*', 'дн\\p{L}*', 'дней', 'недел\\p{L}*', 'месяц\\p{L}*', 'лет', 'год\\p{L}*', 'годин\\p{L}*', 'днів', 'тижн\\p{L}*', 'місяц\\p{L}*', 'років', 'рок\\p{L}*',
  'saat', 'gün', 'hafta', 'ay', 'yıl',
].join('|');
const NUMBER_WORDS = [
  'an?', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'fourteen', 'fifteen', 'twenty', 'thirty', 'a few', 'several', 'next', 'same', 'per',
  'eine[nm]?', 'ein', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'zehn', 'zwölf', 'wenigen', 'nächsten?',
  'une?', 'deux', 'trois', 'quatre', 'cinq', 'dix', 'quelques', 'uno', 'una', 'dos', 'tres', 'cuatro', 'cinco', 'diez', 'due', 'tre', 'quattro', 'dieci', 'um', 'uma', 'dois', 'duas', 'três',
  'een', 'twee', 'drie', 'vijf', 'tien',
].join('|');
const DURATION = new RegExp(`(?:\\d+(?:[.,]\\d+)?|(?<![\\p{L}])(?:${NUMBER_WORDS}))[\\s-]*(?:\\p{L}+\\s+)?(?:${UNITS})(?![\\p{L}])`, 'iu');
const CLOCK = /(?<!\d)\d{1,2}(?:[:.]\d{2}\s*(?:am|pm|uhr|h)?|\s*(?:am|pm|a\.m\.|p\.m\.|uhr|h|heures?)(?![\p{L}]))/iu;
const WHEN_WORDS = w(
  [
    'today', 'tomorrow', 'tonight', 'same day', 'next day', 'overnight', 'immediately', 'instantly', 'right away', 'while you wait', 'lifetime', 'for life', 'weekends?', 'daily', 'around the clock', '24/7',
    'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mondays', 'saturdays', 'sundays',
    'heute', 'morgen', 'sofort', 'lebenslang', 'montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag', 'sonntag', 'werktags', 'täglich',
    "aujourd'hui", 'demain', 'immédiatement', 'à vie', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche',
    'hoy', 'mañana', 'lunes', 'sábado', 'domingo', 'oggi', 'domani', 'lunedì', 'sabato', 'domenica', 'hoje', 'amanhã', 'segunda', 'sábado',
    'vandaag', 'morgen', 'maandag', 'zaterdag', 'zondag',
  ].join('|'),
);
const TIME_CJK = /\d+\s*(?:日|営業日|週間|か月|ヶ月|年|時間|分|時|天|周|个月|小时|点|일|주|개월|년|시간|분|시)|今日|明日|即日|翌日|月曜|土曜|日曜|今天|明天|当天|오늘|내일/u;

const PLACE_WORDS = w(
  [
    'address', 'street', 'road', 'avenue', 'square', 'floor', 'building', 'located', 'online', 'worldwide', 'nationwide', 'across',
    'straße', 'strasse', 'str\\.', 'platz', 'weg', 'allee', 'stock', 'gebäude', 'adresse', 'rue', 'boulevard', 'place', 'calle', 'avenida', 'plaza', 'via', 'piazza', 'rua', 'praça', 'straat', 'plein', 'gatan', 'gade', 'gate', 'katu', 'ulica', 'ulice', 'улица', 'вулиця', 'sokak', 'cadde',
  ].join('|'),
);
// A name after "in/at/near …" (German capitalises every noun, so a capital alone says nothing there).
const AT_NAME = /(?<![\p{L}])(?:in|at|near|from|to|bei|nahe|im|am|à|au|aux|en|a|em|no|na|nel|nella|te|op|bij|i|w|v|ve|в|у|на)\s+(?:(?:the|our|der|die|dem|den|unserem|unserer|unseren|le|la|les|l'|notre|nos|el|nuestra|nuestro|nuestras|nuestros|il|nostro|nostra|o|nosso|nossa|de|het|onze|ons)\s+)?\p{Lu}\p{L}+/u;
const POSTCODE = /(?<!\d)\d{4,5}(?!\d)\s+\p{Lu}/u;
// A street and its number (Kaiserstraße 14, 12 Harbour Road, rue de la Paix 3).
const STREET = /\p{L}*(?:straße|strasse|str\.|gasse|weg|platz|allee|ring|damm|street|road|avenue|lane|square|straat|laan|plein|gatan|vägen|gade|vej|gate|veien|katu|tie)\s+\d+|\d+\s+(?:\p{Lu}\p{L}+\s+)+(?:street|road|avenue|lane|square|st\.|rd\.)|(?:rue|avenue|boulevard|place|calle|avenida|plaza|via|piazza|rua|praça|ulica|ulice|улица|вулиця)\s+(?:\p{L}+\s+){0,3}\d*/iu;

/** Whether `sentence` gives an address: a street with its number, or a postcode before a town. */
export function hasAddress(sentence: string): boolean {
  return STREET.test(sentence) || POSTCODE.test(sentence) || /住所|所在地|地址|주소/u.test(sentence);
}
const PLACE_CJK = /店|住所|所在地|駅|東京|大阪|市|区|県|地址|街|路|号|역|주소|시|구/u;

const WEIGHT = /\d\s*(?:kg|g|lbs?|kilos?|kilograms?|kilogramm|grams?|gramm|pounds|ounces|oz|キロ|公斤|킬로)(?![\p{L}])|(?<![\p{L}])(?:weighs|wiegt|pèse|pesa|weegt)(?![\p{L}])/iu;
const DISTANCE = /\d\s*(?:km|mi|miles?|kilomet(?:er|re)s?|kilometern|m|meters?|metres?|キロ|公里|킬로미터)(?![\p{L}])/iu;

/** The kinds of fact `sentence` holds. */
export function factKinds(sentence: string): Set<FactKind> {
  const kinds = new Set<FactKind>();
  if (MONEY.test(sentence) || FREE_OR_PRICED.test(sentence) || PRICE_CJK.test(sentence)) kinds.add('price');
  if (DURATION.test(sentence) || CLOCK.test(sentence) || WHEN_WORDS.test(sentence) || TIME_CJK.test(sentence)) kinds.add('time');
  if (PLACE_WORDS.test(sentence) || AT_NAME.test(sentence) || hasAddress(sentence) || PLACE_CJK.test(sentence)) kinds.add('place');
  if (WEIGHT.test(sentence)) kinds.add('weight');
  if (DISTANCE.test(sentence)) kinds.add('distance');
  return kinds;
}

// --- Questions in two parts ---

const QUESTION_START = [
  'what', 'how', 'when', 'where', 'which', 'who', 'why', 'is', 'are', 'do', 'does', 'can', 'could', 'will', 'would', 'should',
  'was', 'wie', 'wann', 'wo', 'welche[rsnm]?', 'warum', 'kann', 'können', 'ist', 'sind', 'gibt', 'muss', 'bis wann',
  'que', "qu'", 'quel(?:le)?s?', 'combien', 'quand', 'où', 'comment', 'est-ce', 'pourquoi', 'puis-je', 'faut-il',
  'qué', 'cuánto', 'cuándo', 'dónde', 'cómo', 'cuál', 'puedo', 'hay', 'cosa', 'quanto', 'quando', 'dove', 'come', 'quale', 'posso', 'quanto', 'onde', 'como', 'qual',
  'hoe', 'wat', 'wanneer', 'waar', 'welke', 'kan', 'hur', 'vad', 'när', 'var', 'hvordan', 'hvad', 'hva', 'hvornår', 'når', 'hvor', 'mitä', 'milloin', 'missä', 'paljonko', 'kuinka',
  'jak', 'co', 'kiedy', 'gdzie', 'ile', 'czy', 'kdy', 'kde', 'kolik', 'как', 'что', 'когда', 'где', 'сколько', 'як', 'що', 'коли', 'де', 'скільки', 'ne', 'nerede', 'nasıl', 'kaç',
].join('|');
const AND = '(?:and|und|sowie|et|y|e|en|och|og|ja|i|a|и|і|ve)';
const JOINED = new RegExp(`\\s*[,;]?\\s+${AND}\\s+(?=(?:also\\s+|auch\\s+|aussi\\s+)?(?:${QUESTION_START})(?![\\p{L}]))|\\s*;\\s*`, 'iu');

/**
 * The parts of a question that asks two things ("How long does delivery take, and what does it cost?",
 * "When and where can I test-ride?"), each as its own question; one part when it asks one thing.
 */
export function questionParts(question: string): string[] {
  const bySentence = question
    .split(/(?<=[?？])\s*(?=\S)|(?<=。)(?=\S)/u)
    .map((s) => s.trim())
    .filter(Boolean);
  const parts = bySentence.flatMap((s) => s.split(JOINED)).map((s) => s.trim()).filter((s) => s.length > 1);
  return parts.length ? parts.slice(0, 3) : [question];
}
