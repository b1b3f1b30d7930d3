// Small talk in every language the PAL speaks (issue 35): a greeting, thanks, a goodbye or "how are you"
// alone gets the PAL's own line for it in that language, never "I'm not sure"; a question that only
// starts with a greeting is still a question.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerFromKnowledge } from '../../../../src/server/live/agent/knowledge.js';
import { detectLanguage, palLine, spokenLanguages } from '../../../../src/server/resources/pals/lines/language.js';
import { smallTalk } from '../../../../src/server/resources/pals/lines/small-talk.js';

type Kind = 'hello' | 'thanks' | 'bye' | 'howAreYou';
// What visitors say, as they would type or be heard saying it.
const SAID: Record<string, Record<Kind, string[]>> = {
  en: {
    hello: ['Hi there!', 'Good morning'],
    thanks: ['Thanks a lot!', 'Thank you'],
    bye: ['Bye!', 'Goodbye.'],
    howAreYou: ['How are you?', 'Hi, how are you doing?'],
  },
  de: {
    hello: ['Hallo!', 'Guten Morgen'],
    thanks: ['Danke schön!', 'Vielen Dank'],
    bye: ['Tschüss!', 'Auf Wiedersehen'],
    howAreYou: ['Wie geht es Ihnen?', "Hallo, wie geht's?"],
  },
  fr: {
    hello: ['Bonjour !', 'Salut'],
    thanks: ['Merci beaucoup !', 'Merci'],
    bye: ['Au revoir !'],
    howAreYou: ['Comment allez-vous ?', 'Ça va ?'],
  },
  es: {
    hello: ['¡Hola!', 'Buenos días'],
    thanks: ['Muchas gracias'],
    bye: ['Adiós', 'Hasta luego'],
    howAreYou: ['¿Qué tal?', 'Hola, ¿cómo estás?'],
  },
  it: { hello: ['Buongiorno!', 'Salve'], thanks: ['Grazie mille'], bye: ['Arrivederci!'], howAreYou: ['Come sta?'] },
  pt: { hello: ['Olá!', 'Bom dia'], thanks: ['Obrigado!', 'Obrigada'], bye: ['Tchau!', 'Adeus'], howAreYou: ['Tudo bem?', 'Como está?'] },
  nl: {
    hello: ['Hoi!', 'Goedemorgen'],
    thanks: ['Dank je wel!', 'Bedankt'],
    bye: ['Tot ziens!', 'Doei'],
    howAreYou: ['Hoe gaat het?', 'Hoe gaat het met u?'],
  },
  ja: { hello: ['こんにちは！'], thanks: ['ありがとうございます'], bye: ['さようなら'], howAreYou: ['お元気ですか？'] },
  sv: {
    hello: ['Hej!', 'God morgon'],
    thanks: ['Tack så mycket!', 'Tack'],
    bye: ['Hej då!', 'Vi ses'],
    howAreYou: ['Hur mår du?', 'Hej, hur är läget?'],
  },
  da: {
    hello: ['Hej!', 'Godmorgen'],
    thanks: ['Tak!', 'Mange tak'],
    bye: ['Farvel!', 'Vi ses'],
    howAreYou: ['Hvordan har du det?', 'Hej, hvordan går det?'],
  },
  nb: {
    hello: ['Hei!', 'God morgen'],
    thanks: ['Takk!', 'Tusen takk'],
    bye: ['Ha det bra!', 'Vi ses'],
    howAreYou: ['Hvordan har du det?', 'Hei, hvordan går det?'],
  },
  no: { hello: ['Hei!'], thanks: ['Takk for det!'], bye: ['Ha det!'], howAreYou: ['Hvordan står det til?'] },
  fi: {
    hello: ['Hei!', 'Moi', 'Hyvää päivää'],
    thanks: ['Kiitos paljon!', 'Kiitos'],
    bye: ['Näkemiin!', 'Heippa'],
    howAreYou: ['Mitä kuuluu?', 'Moi, miten menee?'],
  },
  pl: {
    hello: ['Dzień dobry!', 'Cześć'],
    thanks: ['Dziękuję bardzo!', 'Dzięki'],
    bye: ['Do widzenia!', 'Na razie'],
    howAreYou: ['Jak się masz?', 'Cześć, co słychać?'],
  },
  cs: {
    hello: ['Dobrý den!', 'Ahoj'],
    thanks: ['Děkuji moc!', 'Díky'],
    bye: ['Na shledanou!', 'Nashle'],
    howAreYou: ['Jak se máte?', 'Ahoj, jak se máš?'],
  },
  ru: {
    hello: ['Здравствуйте!', 'Привет'],
    thanks: ['Спасибо большое!', 'Спасибо'],
    bye: ['До свидания!', 'Пока'],
    howAreYou: ['Как дела?', 'Привет, как у вас дела?'],
  },
  uk: {
    hello: ['Вітаю!', 'Привіт', 'Добрий день'],
    thanks: ['Дякую!', 'Дякую дуже'],
    bye: ['До побачення!', 'Бувай'],
    howAreYou: ['Як справи?', 'Привіт, як у вас справи?'],
  },
  tr: {
    hello: ['Merhaba!', 'Günaydın'],
    thanks: ['Teşekkürler!', 'Teşekkür ederim'],
    bye: ['Hoşça kalın!', 'Görüşürüz'],
    howAreYou: ['Nasılsınız?', 'Merhaba, nasılsın?'],
  },
  zh: { hello: ['你好！', '您好'], thanks: ['谢谢！', '谢谢你'], bye: ['再见！', '拜拜'], howAreYou: ['你好吗？', '最近怎么样？'] },
  ko: {
    hello: ['안녕하세요!', '안녕'],
    thanks: ['감사합니다!', '고맙습니다'],
    bye: ['안녕히 계세요!', '안녕히 가세요'],
    howAreYou: ['잘 지내세요?', '어떻게 지내세요?'],
  },
};

describe('small talk in every language the PAL speaks', () => {
  it('lists every spoken language', () => {
    assert.deepEqual(Object.keys(SAID).sort(), [...spokenLanguages].sort());
  });

  for (const [lang, kinds] of Object.entries(SAID)) {
    it(`${lang}: greetings, thanks, goodbyes and "how are you" get the PAL's own line in ${lang}`, () => {
      for (const [kind, phrases] of Object.entries(kinds) as Array<[Kind, string[]]>) {
        for (const phrase of phrases) {
          assert.equal(smallTalk(phrase, lang), kind, `${lang} "${phrase}"`);
          assert.equal(answerFromKnowledge(phrase, { passages: [], memories: [] }, null, lang), palLine(lang, kind), `${lang} "${phrase}"`);
        }
      }
    });
  }

  it('a question that starts with a greeting is a question, not small talk', () => {
    for (const [q, lang] of [
      ['Hej, hur mycket kostar en cykel i veckan?', 'sv'],
      ['Здравствуйте, сколько стоит аренда велосипеда?', 'ru'],
      ['Merhaba, bisiklet kiralamak ne kadar?', 'tr'],
      ['你好，租自行车多少钱？', 'zh'],
    ] as const) {
      assert.equal(smallTalk(q, lang), null, q);
    }
  });

  it('yes and no alone are still an acknowledgement (Polish "tak"), and Danish "tak" is thanks', () => {
    assert.equal(smallTalk('Tak', 'pl'), 'ack');
    assert.equal(smallTalk('Tak!', 'da'), 'thanks');
    assert.equal(smallTalk('Ja', 'sv'), 'ack');
  });

  it('a visitor writing in one of the newer languages is recognised among the conversation’s languages', () => {
    assert.equal(detectLanguage('Hur mycket kostar det och när öppnar ni?', ['en', 'sv']), 'sv');
    assert.equal(detectLanguage('Сколько это стоит и когда вы открываетесь?', ['en', 'ru', 'uk']), 'ru');
    assert.equal(detectLanguage('Скільки це коштує і коли ви відкриваєтеся?', ['en', 'ru', 'uk']), 'uk');
    assert.equal(detectLanguage('这个多少钱？', ['en', 'zh', 'ja']), 'zh');
    assert.equal(detectLanguage('이거 얼마예요?', ['en', 'ko']), 'ko');
    assert.equal(detectLanguage('Ile to kosztuje i kiedy jest otwarte?', ['en', 'pl', 'cs']), 'pl');
  });
});
