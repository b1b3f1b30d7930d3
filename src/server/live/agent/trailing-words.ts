// The words after which a statement cannot end, and the fillers of someone thinking aloud, per language
// (the primary subtag of the conversation's language). Lower case, apostrophes removed ("l'" is "l").
// Only words that never end a sentence are listed: a word that may close one — a German or Dutch
// separable prefix ("Rufen Sie mich an."), a pronoun after a preposition ("chez nous.") — would make a
// finished turn wait 1.5 s. A language not listed goes by punctuation alone.

export interface TrailingWords {
  /** The words so far end with one of these: more is coming (a full stop after it is the recogniser's guess). */
  trailing: ReadonlySet<string>;
  /** Someone thinking aloud: more is coming, whatever the punctuation. */
  fillers: ReadonlySet<string>;
}

const words = (list: string): ReadonlySet<string> => new Set(list.trim().split(/\s+/));

const LANGUAGES: Record<string, TrailingWords> = {
  en: {
    trailing: words(`a an the and or but so because if that which who whose to of in on at for with from by about into
      than as my your our their his her its this these those is are was were am be do does did can could would should will
      shall may might must have has had im youre like when where while although though whether some any what how why also
      then just very`),
    fillers: words('um uh erm er hmm mm uhm umm ehm'),
  },
  de: {
    trailing: words(`und oder aber denn weil dass wenn ob sondern als der die das den dem des eine einen einem einer eines
      mein meine meinen meinem dein deine unser unsere euer eure von für bei zum zur im am beim vom wie welche welcher welches`),
    fillers: words('äh ähm öhm hm hmm mm'),
  },
  fr: {
    trailing: words(`et ou mais donc car parce que qu qui si le la les l un une des du de d au aux mon ma mes ton ta tes son
      sa ses notre nos votre vos leur leurs pour avec dans sur sans chez par entre vers je j tu il ils ce cette ces comme quand`),
    fillers: words('euh heu hum mm bah'),
  },
  es: {
    trailing: words(`y o pero porque que si el la los las un una unos unas mi mis tu tus su sus nuestro nuestra de del al a en
      con para por sin sobre entre como cuando donde`),
    fillers: words('eh em ehm mm mmm'),
  },
  it: {
    trailing: words(`e o ma perché che se il lo la i gli le un uno una mio mia miei mie di del della dei delle a al alla da
      in nel nella con per su tra fra come quando dove`),
    fillers: words('ehm eh mm mmm'),
  },
  pt: {
    trailing: words(`e ou mas porque que se o a os as um uma uns umas meu minha meus minhas de do da dos das em no na nos nas
      com para por sem como quando onde`),
    fillers: words('hum ahn eh mm'),
  },
  nl: {
    trailing: words(`en of maar want omdat dat als de het een mijn jouw uw onze van met bij naar hoe wat waar welke`),
    fillers: words('eh ehm uh uhm mm'),
  },
};

const NONE: TrailingWords = { trailing: new Set(), fillers: new Set() };

/** The lists for a language tag (`de`, `pt-BR`…); empty for a language without them. */
export function trailingWordsOf(language: string): TrailingWords {
  return LANGUAGES[language.toLowerCase().split(/[-_]/)[0] ?? ''] ?? NONE;
}
