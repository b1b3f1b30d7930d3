// The local PAL's own lines (greeting, small talk, "I don't know", refusals) in the languages it speaks,
// so that a German PAL greets and answers in German. Languages without a table fall back to English.

interface Phrases {
  greeting: (name: string) => string;
  hello: string;
  thanks: string;
  bye: string;
  unsure: (topics: string) => string;
  unsureNoTopics: string;
  refusal: string;
  lostThread: string;
  disclosure: string;
}

const en: Phrases = {
  greeting: (name) => `Hi, I'm ${name}. How can I help you today?`,
  hello: 'Hello! What can I do for you?',
  thanks: "You're welcome! Is there anything else I can help with?",
  bye: 'Goodbye, and thanks for stopping by!',
  unsure: (topics) => `I'm not sure about that one. I can help with questions about ${topics}.`,
  unsureNoTopics: "I'm not sure about that one. Could you tell me a bit more?",
  refusal: "I'm sorry, that is something I can't help with here.",
  lostThread: 'Sorry, I lost my train of thought. Could you say that again?',
  disclosure: "Before we start: I'm an AI system, not a human.",
};

const tables: Record<string, Phrases> = {
  en,
  de: {
    greeting: (name) => `Hallo, ich bin ${name}. Wie kann ich Ihnen helfen?`,
    hello: 'Hallo! Was kann ich für Sie tun?',
    thanks: 'Gern geschehen! Kann ich sonst noch etwas für Sie tun?',
    bye: 'Auf Wiedersehen, und danke für Ihren Besuch!',
    unsure: (topics) => `Da bin ich mir nicht sicher. Ich helfe Ihnen gern bei Fragen zu ${topics}.`,
    unsureNoTopics: 'Da bin ich mir nicht sicher. Können Sie mir etwas mehr dazu sagen?',
    refusal: 'Das tut mir leid, dabei kann ich hier nicht helfen.',
    lostThread: 'Entschuldigung, ich habe den Faden verloren. Können Sie das noch einmal sagen?',
    disclosure: 'Bevor wir anfangen: Ich bin ein KI-System, kein Mensch.',
  },
  fr: {
    greeting: (name) => `Bonjour, je suis ${name}. Comment puis-je vous aider ?`,
    hello: 'Bonjour ! Que puis-je faire pour vous ?',
    thanks: 'Avec plaisir ! Puis-je vous aider pour autre chose ?',
    bye: 'Au revoir, et merci de votre visite !',
    unsure: (topics) => `Je ne suis pas sûre de cela. Je peux vous aider pour les questions sur ${topics}.`,
    unsureNoTopics: "Je ne suis pas sûre de cela. Pouvez-vous m'en dire un peu plus ?",
    refusal: "Je suis désolée, je ne peux pas vous aider sur ce point ici.",
    lostThread: "Pardon, j'ai perdu le fil. Pouvez-vous répéter ?",
    disclosure: 'Avant de commencer : je suis un système d’IA, pas un être humain.',
  },
  es: {
    greeting: (name) => `Hola, soy ${name}. ¿En qué puedo ayudarle?`,
    hello: '¡Hola! ¿Qué puedo hacer por usted?',
    thanks: '¡De nada! ¿Puedo ayudarle con algo más?',
    bye: '¡Adiós, y gracias por su visita!',
    unsure: (topics) => `No estoy segura de eso. Puedo ayudarle con preguntas sobre ${topics}.`,
    unsureNoTopics: 'No estoy segura de eso. ¿Puede contarme un poco más?',
    refusal: 'Lo siento, en eso no puedo ayudarle aquí.',
    lostThread: 'Perdone, perdí el hilo. ¿Puede repetirlo?',
    disclosure: 'Antes de empezar: soy un sistema de IA, no una persona.',
  },
  it: {
    greeting: (name) => `Ciao, sono ${name}. Come posso aiutarla?`,
    hello: 'Ciao! Cosa posso fare per lei?',
    thanks: 'Prego! Posso aiutarla con qualcos’altro?',
    bye: 'Arrivederci, e grazie della visita!',
    unsure: (topics) => `Non ne sono sicura. Posso aiutarla con domande su ${topics}.`,
    unsureNoTopics: 'Non ne sono sicura. Può dirmi qualcosa di più?',
    refusal: 'Mi dispiace, qui non posso aiutarla su questo.',
    lostThread: 'Scusi, ho perso il filo. Può ripetere?',
    disclosure: 'Prima di iniziare: sono un sistema di IA, non una persona.',
  },
  pt: {
    greeting: (name) => `Olá, sou a ${name}. Como posso ajudar?`,
    hello: 'Olá! O que posso fazer por si?',
    thanks: 'De nada! Posso ajudar com mais alguma coisa?',
    bye: 'Adeus, e obrigada pela visita!',
    unsure: (topics) => `Não tenho a certeza. Posso ajudar com perguntas sobre ${topics}.`,
    unsureNoTopics: 'Não tenho a certeza. Pode dizer-me um pouco mais?',
    refusal: 'Lamento, não posso ajudar com isso aqui.',
    lostThread: 'Desculpe, perdi o fio à meada. Pode repetir?',
    disclosure: 'Antes de começarmos: sou um sistema de IA, não uma pessoa.',
  },
  nl: {
    greeting: (name) => `Hallo, ik ben ${name}. Waarmee kan ik u helpen?`,
    hello: 'Hallo! Wat kan ik voor u doen?',
    thanks: 'Graag gedaan! Kan ik u nog ergens anders mee helpen?',
    bye: 'Tot ziens, en bedankt voor uw bezoek!',
    unsure: (topics) => `Daar ben ik niet zeker van. Ik help u graag met vragen over ${topics}.`,
    unsureNoTopics: 'Daar ben ik niet zeker van. Kunt u iets meer vertellen?',
    refusal: 'Het spijt me, daar kan ik u hier niet mee helpen.',
    lostThread: 'Sorry, ik ben de draad kwijt. Kunt u dat herhalen?',
    disclosure: 'Voordat we beginnen: ik ben een AI-systeem, geen mens.',
  },
  ja: {
    greeting: (name) => `こんにちは、${name}です。ご用件をどうぞ。`,
    hello: 'こんにちは！何をお手伝いしましょうか？',
    thanks: 'どういたしまして！ほかにお手伝いできることはありますか？',
    bye: 'さようなら。ご来訪ありがとうございました！',
    unsure: (topics) => `それについては分かりかねます。${topics}についてのご質問ならお手伝いできます。`,
    unsureNoTopics: 'それについては分かりかねます。もう少し詳しく教えていただけますか？',
    refusal: '申し訳ありませんが、その件についてはここではお手伝いできません。',
    lostThread: 'すみません、話が途切れてしまいました。もう一度おっしゃっていただけますか？',
    disclosure: '始める前に：私は人間ではなく、AIシステムです。',
  },
};

export function phrasesFor(language: string): Phrases {
  return tables[language] ?? en;
}

/** Small talk the PAL answers without looking anything up, by language-independent patterns. */
export function smallTalk(text: string, phrases: Phrases): string | null {
  const t = text.trim().toLowerCase();
  if (/^(hi|hello|hey|good (morning|afternoon|evening)|hallo|guten (morgen|tag|abend)|servus|bonjour|salut|hola|buenos d[ií]as|ciao|buongiorno|ol[aá]|bom dia|hoi|goedendag|こんにちは)\b[\s!.,?]*$/u.test(t)) return phrases.hello;
  if (/^(thanks?( you)?( so much)?|thank you|danke( sch[oö]n)?|vielen dank|merci( beaucoup)?|gracias|grazie|obrigad[oa]|dank (je|u)( wel)?|ありがとう)\b[\s!.,]*$/u.test(t)) return phrases.thanks;
  if (/^(bye|goodbye|see you|tsch[uü]ss|auf wiedersehen|au revoir|adi[oó]s|arrivederci|tchau|adeus|dag|doei|さようなら)\b[\s!.,]*$/u.test(t)) return phrases.bye;
  return null;
}
