// The frames of a reply built from the PAL's knowledge without a language model, in every language it
// speaks: a fact quoted from knowledge written in another language than the visitor's, and the honest
// line for the part of a two-part question the knowledge does not answer (naming what is not known).
// Also the line that takes back an invitation to speak when the page turns out unable to hear.

export interface AnswerLines {
  /** A sentence of the knowledge, quoted as written, for a visitor who asked in another language. */
  quoted: string;
  /** One part of the question asked a price the knowledge does not give. */
  unsurePrice: string;
  /** One part asked when or how long. */
  unsureTime: string;
  /** One part asked where. */
  unsurePlace: string;
  /** One part asked something else; `{part}` is the visitor's words. */
  unsurePart: string;
  /** The greeting invited speech, then the page's speech recognition stopped working. */
  cannotHear: string;
}

export const ANSWER_LINES: Record<string, AnswerLines> = {
  en: {
    quoted: 'What I have on that is written in another language: “{fact}”',
    unsurePrice: "What it costs, I'm not sure; what I know doesn't say.",
    unsureTime: "When, or how long it takes, I'm not sure; what I know doesn't say.",
    unsurePlace: "Where, I'm not sure; what I know doesn't say.",
    unsurePart: "About “{part}” I'm not sure; what I know doesn't cover it.",
    cannotHear: "Sorry, I can't hear you in this browser. Please type your questions instead.",
  },
  de: {
    quoted: 'Dazu steht in meinen Unterlagen, in einer anderen Sprache: „{fact}“',
    unsurePrice: 'Was es kostet, weiß ich leider nicht; mein Wissen sagt dazu nichts.',
    unsureTime: 'Wann oder wie lange, weiß ich leider nicht; mein Wissen sagt dazu nichts.',
    unsurePlace: 'Wo, weiß ich leider nicht; mein Wissen sagt dazu nichts.',
    unsurePart: 'Zu „{part}“ weiß ich leider nichts; mein Wissen deckt das nicht ab.',
    cannotHear: 'Entschuldigung, in diesem Browser kann ich Sie nicht hören. Bitte schreiben Sie Ihre Fragen stattdessen.',
  },
  fr: {
    quoted: 'Voici ce que j’ai à ce sujet, écrit dans une autre langue : « {fact} »',
    unsurePrice: 'Ce que cela coûte, je ne suis pas sûr ; ce que je sais ne le dit pas.',
    unsureTime: 'Quand, ou combien de temps, je ne suis pas sûr ; ce que je sais ne le dit pas.',
    unsurePlace: 'Où, je ne suis pas sûr ; ce que je sais ne le dit pas.',
    unsurePart: 'Pour « {part} », je ne suis pas sûr ; ce que je sais ne le couvre pas.',
    cannotHear: 'Désolé, je ne peux pas vous entendre dans ce navigateur. Écrivez plutôt vos questions.',
  },
  es: {
    quoted: 'Lo que tengo sobre eso está escrito en otro idioma: «{fact}»',
    unsurePrice: 'Cuánto cuesta, no estoy seguro; lo que sé no lo dice.',
    unsureTime: 'Cuándo, o cuánto tarda, no estoy seguro; lo que sé no lo dice.',
    unsurePlace: 'Dónde, no estoy seguro; lo que sé no lo dice.',
    unsurePart: 'Sobre «{part}» no estoy seguro; lo que sé no lo cubre.',
    cannotHear: 'Lo siento, no puedo oírle en este navegador. Escriba sus preguntas, por favor.',
  },
  it: {
    quoted: 'Quello che ho su questo è scritto in un’altra lingua: «{fact}»',
    unsurePrice: 'Quanto costa, non ne sono sicuro; quello che so non lo dice.',
    unsureTime: 'Quando, o quanto tempo ci vuole, non ne sono sicuro; quello che so non lo dice.',
    unsurePlace: 'Dove, non ne sono sicuro; quello che so non lo dice.',
    unsurePart: 'Su «{part}» non ne sono sicuro; quello che so non lo copre.',
    cannotHear: 'Mi dispiace, in questo browser non posso sentirla. Scriva le sue domande, per favore.',
  },
  pt: {
    quoted: 'O que tenho sobre isso está escrito noutra língua: «{fact}»',
    unsurePrice: 'Quanto custa, não tenho certeza; o que sei não o diz.',
    unsureTime: 'Quando, ou quanto tempo demora, não tenho certeza; o que sei não o diz.',
    unsurePlace: 'Onde, não tenho certeza; o que sei não o diz.',
    unsurePart: 'Sobre «{part}» não tenho certeza; o que sei não cobre esse assunto.',
    cannotHear: 'Desculpe, não consigo ouvi-lo neste navegador. Escreva as suas perguntas, por favor.',
  },
  nl: {
    quoted: 'Wat ik daarover heb, staat in een andere taal: "{fact}"',
    unsurePrice: 'Wat het kost, weet ik niet zeker; mijn kennis zegt het niet.',
    unsureTime: 'Wanneer, of hoe lang het duurt, weet ik niet zeker; mijn kennis zegt het niet.',
    unsurePlace: 'Waar, weet ik niet zeker; mijn kennis zegt het niet.',
    unsurePart: 'Over "{part}" weet ik het niet zeker; mijn kennis dekt dat niet.',
    cannotHear: 'Sorry, in deze browser kan ik u niet horen. Typ uw vragen alstublieft.',
  },
  ja: {
    quoted: 'これについては、別の言語で次のように書かれています：「{fact}」',
    unsurePrice: '料金については分かりません。私の知識には書かれていません。',
    unsureTime: '時期やかかる時間については分かりません。私の知識には書かれていません。',
    unsurePlace: '場所については分かりません。私の知識には書かれていません。',
    unsurePart: '「{part}」については分かりません。私の知識の範囲外です。',
    cannotHear: '申し訳ありません、このブラウザーではお声が聞こえません。質問を入力してください。',
  },
  sv: {
    quoted: 'Det jag har om det är skrivet på ett annat språk: ”{fact}”',
    unsurePrice: 'Vad det kostar är jag inte säker på; det jag vet säger inget om det.',
    unsureTime: 'När, eller hur lång tid det tar, är jag inte säker på; det jag vet säger inget om det.',
    unsurePlace: 'Var är jag inte säker på; det jag vet säger inget om det.',
    unsurePart: 'Om ”{part}” är jag inte säker; det jag vet täcker inte det.',
    cannotHear: 'Förlåt, jag kan inte höra dig i den här webbläsaren. Skriv dina frågor i stället.',
  },
  da: {
    quoted: 'Det, jeg har om det, er skrevet på et andet sprog: “{fact}”',
    unsurePrice: 'Hvad det koster, er jeg ikke sikker på; min viden siger det ikke.',
    unsureTime: 'Hvornår, eller hvor lang tid det tager, er jeg ikke sikker på; min viden siger det ikke.',
    unsurePlace: 'Hvor, er jeg ikke sikker på; min viden siger det ikke.',
    unsurePart: 'Om “{part}” er jeg ikke sikker; min viden dækker det ikke.',
    cannotHear: 'Beklager, jeg kan ikke høre dig i denne browser. Skriv dine spørgsmål i stedet.',
  },
  nb: {
    quoted: 'Det jeg har om det, er skrevet på et annet språk: «{fact}»',
    unsurePrice: 'Hva det koster, er jeg ikke sikker på; det jeg vet, sier det ikke.',
    unsureTime: 'Når, eller hvor lang tid det tar, er jeg ikke sikker på; det jeg vet, sier det ikke.',
    unsurePlace: 'Hvor, er jeg ikke sikker på; det jeg vet, sier det ikke.',
    unsurePart: 'Om «{part}» er jeg ikke sikker; det jeg vet, dekker ikke det.',
    cannotHear: 'Beklager, jeg kan ikke høre deg i denne nettleseren. Skriv spørsmålene dine i stedet.',
  },
  fi: {
    quoted: 'Tietoni tästä on kirjoitettu toisella kielellä: ”{fact}”',
    unsurePrice: 'Hinnasta en ole varma; tietoni eivät kerro sitä.',
    unsureTime: 'Ajankohdasta tai kestosta en ole varma; tietoni eivät kerro sitä.',
    unsurePlace: 'Paikasta en ole varma; tietoni eivät kerro sitä.',
    unsurePart: 'Kohdasta ”{part}” en ole varma; tietoni eivät kata sitä.',
    cannotHear: 'Anteeksi, en kuule sinua tässä selaimessa. Kirjoita kysymyksesi.',
  },
  pl: {
    quoted: 'To, co mam na ten temat, jest napisane w innym języku: „{fact}”',
    unsurePrice: 'Ile to kosztuje, nie jestem pewien; moja wiedza tego nie mówi.',
    unsureTime: 'Kiedy ani jak długo to trwa, nie jestem pewien; moja wiedza tego nie mówi.',
    unsurePlace: 'Gdzie, nie jestem pewien; moja wiedza tego nie mówi.',
    unsurePart: 'Co do „{part}” nie jestem pewien; moja wiedza tego nie obejmuje.',
    cannotHear: 'Przepraszam, w tej przeglądarce nic nie słyszę. Proszę wpisać pytania.',
  },
  cs: {
    quoted: 'Co o tom mám, je napsáno v jiném jazyce: „{fact}“',
    unsurePrice: 'Kolik to stojí, nevím jistě; mé znalosti to neříkají.',
    unsureTime: 'Kdy ani jak dlouho to trvá, nevím jistě; mé znalosti to neříkají.',
    unsurePlace: 'Kde, nevím jistě; mé znalosti to neříkají.',
    unsurePart: 'O „{part}“ nevím jistě; mé znalosti to nepokrývají.',
    cannotHear: 'Omlouvám se, v tomto prohlížeči vás neslyším. Napište prosím své dotazy.',
  },
  ru: {
    quoted: 'Вот что у меня есть об этом, на другом языке: «{fact}»',
    unsurePrice: 'Сколько это стоит, точно не знаю: в моих сведениях этого нет.',
    unsureTime: 'Когда или сколько это займёт, точно не знаю: в моих сведениях этого нет.',
    unsurePlace: 'Где, точно не знаю: в моих сведениях этого нет.',
    unsurePart: 'Насчёт «{part}» точно не знаю: мои сведения этого не охватывают.',
    cannotHear: 'Извините, в этом браузере я вас не слышу. Пожалуйста, напишите ваши вопросы.',
  },
  uk: {
    quoted: 'Ось що в мене є про це, іншою мовою: «{fact}»',
    unsurePrice: 'Скільки це коштує, точно не знаю: у моїх відомостях цього немає.',
    unsureTime: 'Коли чи скільки це триває, точно не знаю: у моїх відомостях цього немає.',
    unsurePlace: 'Де, точно не знаю: у моїх відомостях цього немає.',
    unsurePart: 'Щодо «{part}» точно не знаю: мої відомості цього не охоплюють.',
    cannotHear: 'Вибачте, у цьому браузері я вас не чую. Будь ласка, напишіть ваші запитання.',
  },
  tr: {
    quoted: 'Bu konuda elimdeki bilgi başka bir dilde yazılmış: “{fact}”',
    unsurePrice: 'Ne kadar tuttuğundan emin değilim; bilgilerim bunu söylemiyor.',
    unsureTime: 'Ne zaman ya da ne kadar süreceğinden emin değilim; bilgilerim bunu söylemiyor.',
    unsurePlace: 'Nerede olduğundan emin değilim; bilgilerim bunu söylemiyor.',
    unsurePart: '“{part}” konusunda emin değilim; bilgilerim bunu kapsamıyor.',
    cannotHear: 'Üzgünüm, bu tarayıcıda sizi duyamıyorum. Lütfen sorularınızı yazın.',
  },
  zh: {
    quoted: '关于这一点，我的资料是用另一种语言写的：“{fact}”',
    unsurePrice: '价格方面我不太确定，我的资料里没有写。',
    unsureTime: '时间方面我不太确定，我的资料里没有写。',
    unsurePlace: '地点方面我不太确定，我的资料里没有写。',
    unsurePart: '关于“{part}”，我不太确定，我的资料里没有这方面的内容。',
    cannotHear: '抱歉，在这个浏览器里我听不到您的声音，请把问题打字输入。',
  },
  ko: {
    quoted: '이에 대해 제가 가진 정보는 다른 언어로 적혀 있습니다: “{fact}”',
    unsurePrice: '비용은 잘 모르겠습니다. 제가 아는 내용에는 없어요.',
    unsureTime: '시기나 걸리는 시간은 잘 모르겠습니다. 제가 아는 내용에는 없어요.',
    unsurePlace: '장소는 잘 모르겠습니다. 제가 아는 내용에는 없어요.',
    unsurePart: '“{part}”에 대해서는 잘 모르겠습니다. 제가 아는 내용에는 없어요.',
    cannotHear: '죄송합니다. 이 브라우저에서는 목소리가 들리지 않습니다. 질문을 입력해 주세요.',
  },
};
