// Phrasings that stand for one meaning, rewritten to that meaning's word before a text is cut into words:
// "no charge", "for free", "included" → free; "how much", "cost", "fee" → price; the same in CJK scripts.

// Phrasings of one meaning, rewritten to the word that stands for it (English, German, French, Spanish,
// Italian, Portuguese, Dutch: the languages most knowledge is written in). Longest first.
const PHRASES: Array<[RegExp, string]> = [
  // When a visitor would do it, not what they ask about: "try a bike before buying", "after ordering".
  [/\b(?:before|after|without) (?:buying|ordering|purchasing|paying|booking)(?: (?:it|one|them))?\b/giu, ' '],
  [
    /\b(?:free of charge|at no (?:extra |additional )?(?:charge|cost)|for free|no (?:extra |additional )?(?:charge|cost|fee)s?|without (?:any )?(?:extra )?(?:charge|cost)|(?:is|are|comes?) included|complimentary|costs? nothing|doesn'?t cost (?:anything|extra)|don'?t (?:have to )?pay (?:anything|extra)|included in the price)\b/giu,
    ' free ',
  ],
  [
    /\b(?:(?:have|need|got) to pay(?: anything)?(?: for)?|pay(?:ing)? for|pay(?:ing)? (?:extra|more|anything)(?: for)?|(?:be |get |am |is |are )charged(?: extra)?|charged extra|(?:do|does|will|would) (?:you|they|we) charge(?: extra)?|extra (?:cost|charge|fee)s?|additional (?:cost|charge|fee)s?|how much (?:is|are|does|do|will|would)?|what (?:is|are) the (?:price|cost)s?)\b/giu,
    ' price ',
  ],
  [
    /(?<!\p{L})(?:kostenlos|kostenfrei|gratis|umsonst|inklusive|inbegriffen|ohne aufpreis|ohne zusätzliche kosten|gratuit(?:e|s|es)?|sans frais|offert(?:e|s|es)?|inclus(?:e|es)?|sin coste|sin costo|gratuito|gratuita|incluido|incluida|senza costi|gratuiti|incluso|inclusa|grátis|sem custo|incluído|incluída|gratis|zonder kosten|inbegrepen)(?!\p{L})/giu,
    ' free ',
  ],
  [
    /(?<!\p{L})(?:wie viel kostet|was kostet|aufpreis|combien coûte|combien(?! de (?:temps|jours|semaines|mois|heures))|cuánto cuesta|cuánto(?! tiempo| tarda)|quanto costa|quanto custa|hoeveel kost)(?!\p{L})/giu,
    ' price ',
  ],
  // Where a delivery ends, and a test ride in one word.
  [/\b(?:reach|get to|arrive at|be at|come to) (?:my|our|your) (?:house|home|door|place|flat|apartment|address)\b/giu, ' delivery '],
  [/(?<!\p{L})(?:en plusieurs fois|in raten|a plazos|a rate|em prestações|in termijnen)(?!\p{L})/giu, ' instalment '],
  [/(?<!\p{L})(?:probefahrt(?:en)?|proefrit(?:ten)?|provtur|prøvetur|prueba de conducción|essai routier)(?!\p{L})/giu, ' test ride '],
];

/** `text` with the common phrasings of "free" and "price" rewritten to those words. */
export function paraphrased(text: string): string {
  let out = cjkMeanings(text);
  for (const [re, word] of PHRASES) out = out.replace(re, word);
  return out;
}

// Words of other scripts for the same meanings, found inside a run of text (Japanese, Chinese and
// Korean write without spaces): each is rewritten to the word its group counts as.
const CJK_WORDS: Array<[RegExp, string]> = [
  [/配送|配達|発送|届け|届く|届き|お届け|送货|配送|快递|배송|배달/gu, ' delivery '],
  [/送料/gu, ' delivery price '],
  [/料金|値段|価格|費用|いくら|無料|价格|费用|免费|가격|비용|요금|무료|얼마/gu, ' price '],
  [/サイズ|尺寸|尺码|사이즈|크기/gu, ' size '],
  [/返品|返金|返却|退货|退款|반품|환불/gu, ' return '],
  [/保証|保修|保障|보증/gu, ' warranty '],
  [/試乗|試し|试骑|试用|시승/gu, ' test ride '],
  [/分割払い|分割|ローン|分期|할부/gu, ' instalment '],
  [/店舗|お店|店|门店|商店|매장|가게/gu, ' store '],
  [/自転車|バイク|自行车|单车|자전거/gu, ' bike '],
  [/組み立て|組立|组装|조립/gu, ' assembled '],
  [/ライト|照明|车灯|라이트/gu, ' light '],
  [/フレーム|车架|프레임/gu, ' frame '],
  [/予約|预约|예약/gu, ' appointment '],
  [/キャンセル|取消|취소/gu, ' cancel '],
  [/駐車|停车|주차/gu, ' parking '],
  [/営業時間|营业时间|영업시간/gu, ' hours open '],
  [/重さ|重量|무게/gu, ' weight '],
  [/サポート|支持|客服|지원/gu, ' support '],
  [/データ|数据|데이터/gu, ' data '],
];
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** `text` with its words in Japanese, Chinese and Korean for known meanings rewritten to those meanings' words. */
export function cjkMeanings(text: string): string {
  if (!HAS_CJK.test(text)) return text;
  let out = text;
  // A word inside a longer compound is not that word (電動自転車, an e-bike, is not any bike).
  for (const [re, word] of CJK_WORDS)
    out = out.replace(re, (found: string, at: number) => (/[\p{Script=Han}\p{Script=Katakana}]/u.test(out[at - 1] ?? '') ? found : word));
  return out;
}
