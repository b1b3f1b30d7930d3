// Which language the local PAL listens and replies in: the PAL's `languages`, or the conversation's own
// `properties.languages` (it replaces the PAL's, it is not merged); the first listed is the default, and
// a visitor writing in another listed language gets replies in that one. Also the PAL's own lines
// (greeting, fallbacks, refusal, disclosure …) in each language it can speak.
import type { LiveConversation } from '../room/live-conversation.js';

/** A primary BCP-47 subtag ('de' for 'de-CH'), lower-cased; '' when the value is not a tag. */
export function primaryLanguage(tag: string): string {
  const m = /^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{2,8})*\s*$/.exec(tag);
  return m ? m[1]!.toLowerCase() : '';
}

const tags = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * The conversation's languages as primary tags, default first: its `properties.languages` when it lists
 * any (an override, not merged), else the PAL's `languages`, else English.
 */
export function conversationLanguages(conv: Pick<LiveConversation, 'properties' | 'pal'>): string[] {
  const own = tags(conv.properties.languages).map(primaryLanguage).filter(Boolean);
  const list = own.length ? own : tags(conv.pal.definition.languages).map(primaryLanguage).filter(Boolean);
  return list.length ? [...new Set(list)] : ['en'];
}

/**
 * The language to reply in: the listed language the visitor's words are in when they are clearly in
 * one (a stop-word count), otherwise the conversation's default (its first language).
 */
export function replyLanguage(conv: Pick<LiveConversation, 'properties' | 'pal'>, userText?: string): string {
  const languages = conversationLanguages(conv);
  const fallback = languages[0]!;
  if (!userText || languages.length < 2) return fallback;
  return detectLanguage(userText, languages) ?? fallback;
}

// Short, frequent words that tell languages apart (question words, articles, pronouns, greetings).
const MARKERS: Record<string, string> = {
  en: 'the a an is are was do does did how what when where why who which can could would you your i my me it this that of to and or with for have has hello hi thanks thank please yes no long much many',
  de: 'der die das ein eine ist sind war wie was wann wo warum wer welche welcher kann können könnte sie ihr ich mein mich es dies und oder mit für habe hat hallo danke bitte ja nein lange viel viele nicht auch gibt ihre ihnen bei zu auf',
  fr: 'le la les un une est sont était comment quoi quand où pourquoi qui quel quelle peut pouvez vous votre je mon moi ce et ou avec pour avez bonjour salut merci oui non combien pas des du au',
  es: 'el la los las un una es son era cómo como qué que cuándo dónde por quién cuál puede puedo usted su yo mi me esto y o con para tiene hola gracias sí no cuánto cuanto tarda del al',
  it: 'il lo la gli le un una è sono era come cosa quando dove perché chi quale può posso lei suo io mio mi questo e o con per ha ciao grazie sì no quanto quanti del della non',
  pt: 'o a os as um uma é são era como que quando onde por quem qual pode posso você seu eu meu me isto e ou com para tem olá obrigado obrigada sim não quanto quantos do da não',
  nl: 'de het een is zijn was hoe wat wanneer waar waarom wie welke kan kunt kunnen u jij je uw ik mijn mij dit dat en of met voor heeft hallo hoi bedankt dank alstublieft ja nee lang veel niet',
  ja: '',
};
const markerSets = new Map(Object.entries(MARKERS).map(([k, v]) => [k, new Set(v.split(' ').filter(Boolean))]));

/** The language of `text` among `candidates`, or null when the words do not say clearly. */
export function detectLanguage(text: string, candidates: readonly string[]): string | null {
  if (candidates.includes('ja') && /[\u3040-\u30ff]/.test(text)) return 'ja';
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  if (!words.length) return null;
  let best: string | null = null;
  let bestHits = 0;
  let second = 0;
  for (const lang of candidates) {
    const set = markerSets.get(lang);
    if (!set) continue;
    let hits = 0;
    for (const w of words) if (set.has(w)) hits++;
    // Letters only some languages use are strong hints.
    if (lang === 'de' && /[äöüß]/.test(text)) hits += 2;
    if (lang === 'es' && /[ñ¿¡]/.test(text)) hits += 2;
    if (lang === 'fr' && /[çœ]|[àè]\s/.test(text)) hits += 1;
    if (hits > bestHits) {
      second = bestHits;
      bestHits = hits;
      best = lang;
    } else if (hits > second) second = hits;
  }
  return best && bestHits > second ? best : null;
}

/** English names of languages, for the language model's instructions. */
const NAMES: Record<string, string> = {
  en: 'English', de: 'German', fr: 'French', es: 'Spanish', it: 'Italian', pt: 'Portuguese', nl: 'Dutch', ja: 'Japanese',
  da: 'Danish', sv: 'Swedish', nb: 'Norwegian', no: 'Norwegian', fi: 'Finnish', pl: 'Polish', cs: 'Czech', tr: 'Turkish',
  ru: 'Russian', uk: 'Ukrainian', zh: 'Chinese', ko: 'Korean', ar: 'Arabic', hi: 'Hindi', el: 'Greek', hu: 'Hungarian', ro: 'Romanian',
};

export function languageName(lang: string): string {
  return NAMES[primaryLanguage(lang)] ?? lang;
}

/** The PAL's own lines. `{name}` and `{topics}` are filled in by `palLine`. */
export interface PalLines {
  greeting: string;
  /** Nothing known matches the question; `{topics}` names what the PAL does know about. */
  unsureWithTopics: string;
  unsure: string;
  refusal: string;
  llmFailure: string;
  verbalDisclosure: string;
  visualDisclosure: string;
  /** Added to the disclosure when the call is recorded. */
  recordingNotice: string;
  hello: string;
  thanks: string;
  bye: string;
  howAreYou: string;
  /** Put before an answer now and then, so replies do not all sound alike. */
  leadIns: string[];
  /** Put before something remembered about the visitor. */
  remember: string;
  and: string;
}

const LINES: Record<string, PalLines> = {
  en: {
    greeting: "Hi, I'm {name}. How can I help you today?",
    unsureWithTopics: "I'm not sure about that one. I can help with questions about {topics}, or connect you with a person.",
    unsure: "I'm not sure about that one. Could you put it another way, or shall I connect you with a person?",
    refusal: "I'm sorry, that is something I can't help with here.",
    llmFailure: 'Sorry, I lost my train of thought. Could you say that again?',
    verbalDisclosure: "Before we start: I'm an AI system, not a human.",
    visualDisclosure: 'You are interacting with an AI system.',
    recordingNotice: 'This call is recorded.',
    hello: 'Hello! What can I do for you?',
    thanks: "You're welcome! Is there anything else I can help with?",
    bye: 'Goodbye, and thanks for stopping by!',
    howAreYou: "I'm doing well, thanks for asking! What can I do for you?",
    leadIns: ['', 'Good question. ', '', 'Sure. '],
    remember: 'From what I remember, ',
    and: 'and',
  },
  de: {
    greeting: 'Hallo, ich bin {name}. Wie kann ich Ihnen heute helfen?',
    unsureWithTopics: 'Da bin ich mir leider nicht sicher. Ich kann Ihnen bei Fragen zu {topics} helfen oder Sie mit einer Person verbinden.',
    unsure: 'Da bin ich mir leider nicht sicher. Können Sie es anders formulieren, oder soll ich Sie mit einer Person verbinden?',
    refusal: 'Das tut mir leid, dabei kann ich Ihnen hier nicht helfen.',
    llmFailure: 'Entschuldigung, da habe ich den Faden verloren. Können Sie das noch einmal sagen?',
    verbalDisclosure: 'Bevor wir anfangen: Ich bin ein KI-System, kein Mensch.',
    visualDisclosure: 'Sie sprechen mit einem KI-System.',
    recordingNotice: 'Dieses Gespräch wird aufgezeichnet.',
    hello: 'Hallo! Was kann ich für Sie tun?',
    thanks: 'Gern geschehen! Kann ich sonst noch etwas für Sie tun?',
    bye: 'Auf Wiedersehen, und danke für Ihren Besuch!',
    howAreYou: 'Danke der Nachfrage, mir geht es gut! Was kann ich für Sie tun?',
    leadIns: ['', 'Gute Frage. ', '', 'Gern. '],
    remember: 'Soweit ich weiß: ',
    and: 'und',
  },
  fr: {
    greeting: 'Bonjour, je suis {name}. Comment puis-je vous aider aujourd’hui ?',
    unsureWithTopics: 'Je ne suis pas sûr de cela. Je peux vous aider pour des questions sur {topics}, ou vous mettre en relation avec une personne.',
    unsure: 'Je ne suis pas sûr de cela. Pouvez-vous reformuler, ou voulez-vous parler à une personne ?',
    refusal: 'Je suis désolé, je ne peux pas vous aider sur ce sujet ici.',
    llmFailure: 'Pardon, j’ai perdu le fil. Pouvez-vous répéter ?',
    verbalDisclosure: 'Avant de commencer : je suis un système d’IA, pas un humain.',
    visualDisclosure: 'Vous interagissez avec un système d’IA.',
    recordingNotice: 'Cet appel est enregistré.',
    hello: 'Bonjour ! Que puis-je faire pour vous ?',
    thanks: 'Avec plaisir ! Puis-je vous aider pour autre chose ?',
    bye: 'Au revoir, et merci de votre visite !',
    howAreYou: 'Je vais bien, merci ! Que puis-je faire pour vous ?',
    leadIns: ['', 'Bonne question. ', '', 'Bien sûr. '],
    remember: 'Si je me souviens bien, ',
    and: 'et',
  },
  es: {
    greeting: 'Hola, soy {name}. ¿En qué puedo ayudarle hoy?',
    unsureWithTopics: 'No estoy seguro de eso. Puedo ayudarle con preguntas sobre {topics}, o ponerle en contacto con una persona.',
    unsure: 'No estoy seguro de eso. ¿Puede decirlo de otra manera, o prefiere hablar con una persona?',
    refusal: 'Lo siento, con eso no puedo ayudarle aquí.',
    llmFailure: 'Perdón, he perdido el hilo. ¿Puede repetirlo?',
    verbalDisclosure: 'Antes de empezar: soy un sistema de IA, no una persona.',
    visualDisclosure: 'Está interactuando con un sistema de IA.',
    recordingNotice: 'Esta llamada se graba.',
    hello: '¡Hola! ¿En qué puedo ayudarle?',
    thanks: '¡De nada! ¿Puedo ayudarle con algo más?',
    bye: '¡Adiós, y gracias por su visita!',
    howAreYou: '¡Muy bien, gracias! ¿En qué puedo ayudarle?',
    leadIns: ['', 'Buena pregunta. ', '', 'Claro. '],
    remember: 'Por lo que recuerdo, ',
    and: 'y',
  },
  it: {
    greeting: 'Ciao, sono {name}. Come posso aiutarla oggi?',
    unsureWithTopics: 'Non ne sono sicuro. Posso aiutarla con domande su {topics}, oppure metterla in contatto con una persona.',
    unsure: 'Non ne sono sicuro. Può dirlo in un altro modo, o preferisce parlare con una persona?',
    refusal: 'Mi dispiace, su questo non posso aiutarla qui.',
    llmFailure: 'Scusi, ho perso il filo. Può ripetere?',
    verbalDisclosure: 'Prima di iniziare: sono un sistema di intelligenza artificiale, non una persona.',
    visualDisclosure: 'Sta interagendo con un sistema di intelligenza artificiale.',
    recordingNotice: 'Questa chiamata viene registrata.',
    hello: 'Salve! Cosa posso fare per lei?',
    thanks: 'Prego! Posso aiutarla con qualcos’altro?',
    bye: 'Arrivederci, e grazie della visita!',
    howAreYou: 'Sto bene, grazie! Cosa posso fare per lei?',
    leadIns: ['', 'Bella domanda. ', '', 'Certo. '],
    remember: 'Da quello che ricordo, ',
    and: 'e',
  },
  pt: {
    greeting: 'Olá, eu sou {name}. Como posso ajudar hoje?',
    unsureWithTopics: 'Não tenho certeza sobre isso. Posso ajudar com perguntas sobre {topics}, ou colocá-lo em contato com uma pessoa.',
    unsure: 'Não tenho certeza sobre isso. Pode dizer de outra forma, ou prefere falar com uma pessoa?',
    refusal: 'Desculpe, com isso não posso ajudar aqui.',
    llmFailure: 'Desculpe, perdi o fio da meada. Pode repetir?',
    verbalDisclosure: 'Antes de começarmos: sou um sistema de IA, não um ser humano.',
    visualDisclosure: 'Está a interagir com um sistema de IA.',
    recordingNotice: 'Esta chamada é gravada.',
    hello: 'Olá! Em que posso ajudar?',
    thanks: 'De nada! Posso ajudar com mais alguma coisa?',
    bye: 'Adeus, e obrigado pela visita!',
    howAreYou: 'Estou bem, obrigado! Em que posso ajudar?',
    leadIns: ['', 'Boa pergunta. ', '', 'Claro. '],
    remember: 'Pelo que me lembro, ',
    and: 'e',
  },
  nl: {
    greeting: 'Hallo, ik ben {name}. Waarmee kan ik u vandaag helpen?',
    unsureWithTopics: 'Dat weet ik niet zeker. Ik kan u helpen met vragen over {topics}, of u doorverbinden met een medewerker.',
    unsure: 'Dat weet ik niet zeker. Kunt u het anders zeggen, of wilt u met een medewerker spreken?',
    refusal: 'Het spijt me, daar kan ik u hier niet mee helpen.',
    llmFailure: 'Sorry, ik ben de draad even kwijt. Kunt u dat herhalen?',
    verbalDisclosure: 'Voordat we beginnen: ik ben een AI-systeem, geen mens.',
    visualDisclosure: 'U communiceert met een AI-systeem.',
    recordingNotice: 'Dit gesprek wordt opgenomen.',
    hello: 'Hallo! Wat kan ik voor u doen?',
    thanks: 'Graag gedaan! Kan ik u nog ergens anders mee helpen?',
    bye: 'Tot ziens, en bedankt voor uw bezoek!',
    howAreYou: 'Goed, dank u! Wat kan ik voor u doen?',
    leadIns: ['', 'Goede vraag. ', '', 'Zeker. '],
    remember: 'Voor zover ik weet: ',
    and: 'en',
  },
  ja: {
    greeting: 'こんにちは、{name}です。本日はどのようなご用件でしょうか？',
    unsureWithTopics: 'すみません、それについてはよく分かりません。{topics}についてのご質問でしたらお手伝いできます。担当者におつなぎすることもできます。',
    unsure: 'すみません、それについてはよく分かりません。言い方を変えていただくか、担当者におつなぎしましょうか？',
    refusal: '申し訳ありませんが、その件についてはここではお手伝いできません。',
    llmFailure: 'すみません、話の流れを見失ってしまいました。もう一度おっしゃっていただけますか？',
    verbalDisclosure: '始める前に：私は人間ではなく、AIシステムです。',
    visualDisclosure: 'AIシステムと対話しています。',
    recordingNotice: 'この通話は録音されています。',
    hello: 'こんにちは！どのようなご用件でしょうか？',
    thanks: 'どういたしまして！ほかに何かお手伝いできることはありますか？',
    bye: 'ご来訪ありがとうございました。さようなら！',
    howAreYou: '元気です、ありがとうございます！どのようなご用件でしょうか？',
    leadIns: [''],
    remember: '私の記憶では、',
    and: 'と',
  },
};

/** The PAL's lines in `lang` (English when the PAL has none in that language). */
export function palLines(lang: string): PalLines {
  return LINES[primaryLanguage(lang)] ?? LINES.en!;
}

/** One of the PAL's lines in `lang`, with `{name}`/`{topics}` filled in. */
export function palLine(lang: string, key: Exclude<keyof PalLines, 'leadIns'>, vars: Record<string, string> = {}): string {
  return palLines(lang)[key].replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');
}

/** "a, b and c" in `lang`. */
export function joinList(items: string[], lang: string): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${palLines(lang).and} ${items[items.length - 1]}`;
}

// Visitor small talk: a greeting, thanks, goodbye or "how are you" on its own (not a question with one).
const SMALL_TALK: Array<[Exclude<keyof PalLines, 'leadIns'>, RegExp]> = [
  ['howAreYou', /^(?:(?:hi|hello|hey|hallo|bonjour|hola|ciao|olá|ola|hoi)[,!.\s]*)?(?:how are you(?: doing)?|how's it going|wie geht(?:'s| es)(?: (?:ihnen|dir))?|ça va|comment allez-vous|comment ça va|qué tal|cómo estás?|como está|come stai|come sta|tudo bem|hoe gaat het(?: met u)?|お元気ですか)[\s?!.]*$/iu],
  ['thanks', /^(?:(?:ok(?:ay)?|great|super|prima|perfekt|perfect)[,!.\s]+)?(?:thanks?(?: you)?(?: so much| very much| a lot)?|thx|cheers|danke(?: schön| sehr)?|vielen dank|merci(?: beaucoup)?|gracias|muchas gracias|grazie(?: mille)?|obrigad[oa]|bedankt|dank u(?: wel)?|dank je(?: wel)?|ありがとう(?:ございます)?)[\s!.]*$/iu],
  ['bye', /^(?:(?:ok(?:ay)?|thanks?|danke)[,!.\s]+)?(?:bye|goodbye|good bye|see you|tschüss|tschüs|auf wiedersehen|ciao|au revoir|adiós|adios|hasta luego|arrivederci|tchau|adeus|tot ziens|doei|さようなら)[\s!.]*$/iu],
  ['hello', /^(?:hi|hello|hey|hallo|guten (?:tag|morgen|abend)|moin|servus|grüß gott|bonjour|bonsoir|salut|hola|buenos días|buenas tardes|ciao|salve|buongiorno|olá|ola|bom dia|boa tarde|hoi|goedendag|goedemorgen|good (?:morning|afternoon|evening)|こんにちは)(?:\s+(?:there|zusammen|ava|\p{L}+))?[\s!.,]*$/iu],
];

/** The kind of small talk `text` is, when it is only that. */
export function smallTalk(text: string): 'hello' | 'thanks' | 'bye' | 'howAreYou' | null {
  const t = text.trim();
  if (t.length > 60) return null;
  for (const [kind, re] of SMALL_TALK) if (re.test(t)) return kind as 'hello' | 'thanks' | 'bye' | 'howAreYou';
  return null;
}
