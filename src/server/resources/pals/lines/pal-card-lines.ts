// What the PAL says and shows with a Magic Canvas card, in every language it speaks: the line it says
// as a card appears, the card's own texts (title, question, the default options) and what it says back
// when the visitor answers. Part of the PAL's line table (pal-lines.ts: `card`), so a language is only
// accepted with all of these too. `{choice}`, `{date}`, `{start}`, `{end}`, `{value}` are filled in.

export interface CardLines {
  /** Said as a calendar of times appears. */
  timesLine: string;
  /** The calendar card's title. */
  timesTitle: string;
  /** Said as a question card appears. */
  optionsLine: string;
  /** The question card's question when the visitor named the alternatives. */
  whichOne: string;
  /** The question card's question otherwise, with the three options below. */
  whatNext: string;
  tellMore: string;
  example: string;
  somethingElse: string;
  skipped: string;
  okay: string;
  chose: string;
  answered: string;
  dateChosen: string;
  rangeChosen: string;
  noted: string;
  booked: string;
}

export const CARD_LINES: Record<string, CardLines> = {
  en: {
    timesLine: "I've put a few times on the screen. Pick the one that suits you.", timesTitle: 'Pick a time that suits you',
    optionsLine: "I've put the options on the screen for you.", whichOne: 'Which one would you like?', whatNext: 'What would you like to do next?',
    tellMore: 'Tell me more', example: 'Show me an example', somethingElse: 'Something else',
    skipped: "No problem, let's skip that.", okay: 'Okay.', chose: 'Thanks, you chose {choice}.', answered: 'Thanks for your answer.',
    dateChosen: 'Great, {date} it is.', rangeChosen: 'Great, from {start} to {end}.', noted: "Thanks, I've noted {value}.", booked: 'Your booking is confirmed. Thanks!',
  },
  de: {
    timesLine: 'Ich habe Ihnen ein paar Termine auf den Bildschirm gelegt. Wählen Sie den, der Ihnen passt.', timesTitle: 'Wählen Sie einen passenden Termin',
    optionsLine: 'Ich habe Ihnen die Optionen auf den Bildschirm gelegt.', whichOne: 'Was hätten Sie gern?', whatNext: 'Wie möchten Sie weitermachen?',
    tellMore: 'Erzählen Sie mir mehr', example: 'Zeigen Sie mir ein Beispiel', somethingElse: 'Etwas anderes',
    skipped: 'Kein Problem, das überspringen wir.', okay: 'In Ordnung.', chose: 'Danke, Sie haben {choice} gewählt.', answered: 'Danke für Ihre Antwort.',
    dateChosen: 'Gut, dann am {date}.', rangeChosen: 'Gut, vom {start} bis zum {end}.', noted: 'Danke, ich habe {value} notiert.', booked: 'Ihre Buchung ist bestätigt. Danke!',
  },
  fr: {
    timesLine: 'J’ai affiché quelques créneaux à l’écran. Choisissez celui qui vous convient.', timesTitle: 'Choisissez un créneau qui vous convient',
    optionsLine: 'J’ai affiché les options à l’écran.', whichOne: 'Laquelle préférez-vous ?', whatNext: 'Que souhaitez-vous faire ensuite ?',
    tellMore: 'Dites-m’en plus', example: 'Montrez-moi un exemple', somethingElse: 'Autre chose',
    skipped: 'Pas de problème, passons.', okay: 'D’accord.', chose: 'Merci, vous avez choisi {choice}.', answered: 'Merci pour votre réponse.',
    dateChosen: 'Parfait, ce sera le {date}.', rangeChosen: 'Parfait, du {start} au {end}.', noted: 'Merci, j’ai noté {value}.', booked: 'Votre réservation est confirmée. Merci !',
  },
  es: {
    timesLine: 'He puesto algunos horarios en la pantalla. Elija el que mejor le venga.', timesTitle: 'Elija el horario que mejor le venga',
    optionsLine: 'He puesto las opciones en la pantalla.', whichOne: '¿Cuál prefiere?', whatNext: '¿Qué le gustaría hacer ahora?',
    tellMore: 'Cuénteme más', example: 'Muéstreme un ejemplo', somethingElse: 'Otra cosa',
    skipped: 'No hay problema, lo saltamos.', okay: 'De acuerdo.', chose: 'Gracias, ha elegido {choice}.', answered: 'Gracias por su respuesta.',
    dateChosen: 'Perfecto, entonces el {date}.', rangeChosen: 'Perfecto, del {start} al {end}.', noted: 'Gracias, he anotado {value}.', booked: 'Su reserva está confirmada. ¡Gracias!',
  },
  it: {
    timesLine: 'Ho messo alcuni orari sullo schermo. Scelga quello che le va meglio.', timesTitle: 'Scelga l’orario che le va meglio',
    optionsLine: 'Ho messo le opzioni sullo schermo.', whichOne: 'Quale preferisce?', whatNext: 'Cosa vorrebbe fare adesso?',
    tellMore: 'Mi dica di più', example: 'Mi mostri un esempio', somethingElse: 'Altro',
    skipped: 'Nessun problema, lo saltiamo.', okay: 'Va bene.', chose: 'Grazie, ha scelto {choice}.', answered: 'Grazie per la risposta.',
    dateChosen: 'Perfetto, allora il {date}.', rangeChosen: 'Perfetto, dal {start} al {end}.', noted: 'Grazie, ho annotato {value}.', booked: 'La sua prenotazione è confermata. Grazie!',
  },
  pt: {
    timesLine: 'Coloquei alguns horários no ecrã. Escolha o que lhe for mais conveniente.', timesTitle: 'Escolha um horário conveniente',
    optionsLine: 'Coloquei as opções no ecrã.', whichOne: 'Qual prefere?', whatNext: 'O que gostaria de fazer a seguir?',
    tellMore: 'Conte-me mais', example: 'Mostre-me um exemplo', somethingElse: 'Outra coisa',
    skipped: 'Sem problema, vamos saltar isso.', okay: 'Está bem.', chose: 'Obrigado, escolheu {choice}.', answered: 'Obrigado pela sua resposta.',
    dateChosen: 'Ótimo, fica {date}.', rangeChosen: 'Ótimo, de {start} a {end}.', noted: 'Obrigado, anotei {value}.', booked: 'A sua reserva está confirmada. Obrigado!',
  },
  nl: {
    timesLine: 'Ik heb een paar tijden op het scherm gezet. Kies de tijd die u past.', timesTitle: 'Kies een tijd die u past',
    optionsLine: 'Ik heb de opties op het scherm gezet.', whichOne: 'Welke wilt u?', whatNext: 'Wat wilt u nu doen?',
    tellMore: 'Vertel me meer', example: 'Laat een voorbeeld zien', somethingElse: 'Iets anders',
    skipped: 'Geen probleem, dat slaan we over.', okay: 'Goed.', chose: 'Bedankt, u koos {choice}.', answered: 'Bedankt voor uw antwoord.',
    dateChosen: 'Prima, dan wordt het {date}.', rangeChosen: 'Prima, van {start} tot {end}.', noted: 'Bedankt, ik heb {value} genoteerd.', booked: 'Uw boeking is bevestigd. Bedankt!',
  },
  ja: {
    timesLine: '画面にいくつか日時を表示しました。ご都合のよいものをお選びください。', timesTitle: 'ご都合のよい日時をお選びください',
    optionsLine: '画面に選択肢を表示しました。', whichOne: 'どれになさいますか？', whatNext: '次に何をなさいますか？',
    tellMore: '詳しく教えて', example: '例を見せて', somethingElse: 'その他',
    skipped: '承知しました。飛ばしましょう。', okay: 'かしこまりました。', chose: 'ありがとうございます。{choice}をお選びいただきました。', answered: 'ご回答ありがとうございます。',
    dateChosen: '承知しました。{date}ですね。', rangeChosen: '承知しました。{start}から{end}までですね。', noted: 'ありがとうございます。{value}を控えました。', booked: 'ご予約が確定しました。ありがとうございます！',
  },
  sv: {
    timesLine: 'Jag har lagt upp några tider på skärmen. Välj den som passar dig.', timesTitle: 'Välj en tid som passar dig',
    optionsLine: 'Jag har lagt upp alternativen på skärmen.', whichOne: 'Vilken vill du ha?', whatNext: 'Vad vill du göra nu?',
    tellMore: 'Berätta mer', example: 'Visa ett exempel', somethingElse: 'Något annat',
    skipped: 'Inga problem, vi hoppar över det.', okay: 'Okej.', chose: 'Tack, du valde {choice}.', answered: 'Tack för ditt svar.',
    dateChosen: 'Toppen, då blir det {date}.', rangeChosen: 'Toppen, från {start} till {end}.', noted: 'Tack, jag har noterat {value}.', booked: 'Din bokning är bekräftad. Tack!',
  },
  da: {
    timesLine: 'Jeg har sat et par tidspunkter på skærmen. Vælg det, der passer dig.', timesTitle: 'Vælg et tidspunkt, der passer dig',
    optionsLine: 'Jeg har sat mulighederne på skærmen.', whichOne: 'Hvilken vil du have?', whatNext: 'Hvad vil du gerne nu?',
    tellMore: 'Fortæl mere', example: 'Vis et eksempel', somethingElse: 'Noget andet',
    skipped: 'Intet problem, vi springer det over.', okay: 'Fint.', chose: 'Tak, du valgte {choice}.', answered: 'Tak for dit svar.',
    dateChosen: 'Fint, så bliver det {date}.', rangeChosen: 'Fint, fra {start} til {end}.', noted: 'Tak, jeg har noteret {value}.', booked: 'Din booking er bekræftet. Tak!',
  },
  nb: {
    timesLine: 'Jeg har lagt ut noen tidspunkter på skjermen. Velg det som passer deg.', timesTitle: 'Velg et tidspunkt som passer deg',
    optionsLine: 'Jeg har lagt alternativene ut på skjermen.', whichOne: 'Hvilken vil du ha?', whatNext: 'Hva vil du gjøre nå?',
    tellMore: 'Fortell mer', example: 'Vis et eksempel', somethingElse: 'Noe annet',
    skipped: 'Ikke noe problem, vi hopper over det.', okay: 'Greit.', chose: 'Takk, du valgte {choice}.', answered: 'Takk for svaret.',
    dateChosen: 'Flott, da blir det {date}.', rangeChosen: 'Flott, fra {start} til {end}.', noted: 'Takk, jeg har notert {value}.', booked: 'Bestillingen din er bekreftet. Takk!',
  },
  fi: {
    timesLine: 'Laitoin ruudulle muutaman ajan. Valitse sinulle sopiva.', timesTitle: 'Valitse sinulle sopiva aika',
    optionsLine: 'Laitoin vaihtoehdot ruudulle.', whichOne: 'Minkä haluaisit?', whatNext: 'Mitä haluaisit tehdä seuraavaksi?',
    tellMore: 'Kerro lisää', example: 'Näytä esimerkki', somethingElse: 'Jotain muuta',
    skipped: 'Ei haittaa, ohitetaan se.', okay: 'Selvä.', chose: 'Kiitos, valitsit: {choice}.', answered: 'Kiitos vastauksestasi.',
    dateChosen: 'Hienoa, sovitaan: {date}.', rangeChosen: 'Hienoa: {start} – {end}.', noted: 'Kiitos, merkitsin muistiin: {value}.', booked: 'Varauksesi on vahvistettu. Kiitos!',
  },
  pl: {
    timesLine: 'Wyświetliłem na ekranie kilka terminów. Proszę wybrać ten, który pasuje.', timesTitle: 'Wybierz dogodny termin',
    optionsLine: 'Wyświetliłem opcje na ekranie.', whichOne: 'Którą opcję wybrać?', whatNext: 'Co dalej?',
    tellMore: 'Powiedz mi więcej', example: 'Pokaż przykład', somethingElse: 'Coś innego',
    skipped: 'Nie ma problemu, pomińmy to.', okay: 'Dobrze.', chose: 'Dziękuję, wybór: {choice}.', answered: 'Dziękuję za odpowiedź.',
    dateChosen: 'Świetnie, zatem {date}.', rangeChosen: 'Świetnie, od {start} do {end}.', noted: 'Dziękuję, zanotowałem: {value}.', booked: 'Rezerwacja jest potwierdzona. Dziękuję!',
  },
  cs: {
    timesLine: 'Dal jsem na obrazovku několik termínů. Vyberte si ten, který vám vyhovuje.', timesTitle: 'Vyberte si vhodný termín',
    optionsLine: 'Dal jsem možnosti na obrazovku.', whichOne: 'Kterou si vyberete?', whatNext: 'Co byste chtěli udělat dál?',
    tellMore: 'Řekněte mi víc', example: 'Ukažte mi příklad', somethingElse: 'Něco jiného',
    skipped: 'Žádný problém, přeskočíme to.', okay: 'Dobře.', chose: 'Děkuji, vybrali jste: {choice}.', answered: 'Děkuji za odpověď.',
    dateChosen: 'Výborně, tedy {date}.', rangeChosen: 'Výborně, od {start} do {end}.', noted: 'Děkuji, poznamenal jsem si: {value}.', booked: 'Vaše rezervace je potvrzena. Děkuji!',
  },
  ru: {
    timesLine: 'Я вывел на экран несколько вариантов времени. Выберите удобное.', timesTitle: 'Выберите удобное время',
    optionsLine: 'Я вывел варианты на экран.', whichOne: 'Что вы выберете?', whatNext: 'Что бы вы хотели сделать дальше?',
    tellMore: 'Расскажите подробнее', example: 'Покажите пример', somethingElse: 'Другое',
    skipped: 'Хорошо, пропустим.', okay: 'Хорошо.', chose: 'Спасибо, вы выбрали: {choice}.', answered: 'Спасибо за ответ.',
    dateChosen: 'Отлично, тогда {date}.', rangeChosen: 'Отлично, с {start} по {end}.', noted: 'Спасибо, записал: {value}.', booked: 'Ваша запись подтверждена. Спасибо!',
  },
  uk: {
    timesLine: 'Я вивів на екран кілька варіантів часу. Оберіть зручний.', timesTitle: 'Оберіть зручний час',
    optionsLine: 'Я вивів варіанти на екран.', whichOne: 'Що ви оберете?', whatNext: 'Що б ви хотіли зробити далі?',
    tellMore: 'Розкажіть докладніше', example: 'Покажіть приклад', somethingElse: 'Інше',
    skipped: 'Гаразд, пропустимо.', okay: 'Добре.', chose: 'Дякую, ви обрали: {choice}.', answered: 'Дякую за відповідь.',
    dateChosen: 'Чудово, тоді {date}.', rangeChosen: 'Чудово, з {start} по {end}.', noted: 'Дякую, записав: {value}.', booked: 'Ваш запис підтверджено. Дякую!',
  },
  tr: {
    timesLine: 'Ekrana birkaç saat koydum. Size uygun olanı seçin.', timesTitle: 'Size uygun bir saat seçin',
    optionsLine: 'Seçenekleri ekrana koydum.', whichOne: 'Hangisini istersiniz?', whatNext: 'Şimdi ne yapmak istersiniz?',
    tellMore: 'Daha fazla anlat', example: 'Bir örnek göster', somethingElse: 'Başka bir şey',
    skipped: 'Sorun değil, bunu geçelim.', okay: 'Tamam.', chose: 'Teşekkürler, seçiminiz: {choice}.', answered: 'Yanıtınız için teşekkürler.',
    dateChosen: 'Harika, {date} olsun.', rangeChosen: 'Harika, {start} ile {end} arası.', noted: 'Teşekkürler, not aldım: {value}.', booked: 'Rezervasyonunuz onaylandı. Teşekkürler!',
  },
  zh: {
    timesLine: '我在屏幕上列出了几个时间，请选一个您方便的。', timesTitle: '请选择您方便的时间',
    optionsLine: '我把选项放在屏幕上了。', whichOne: '您想选哪一个？', whatNext: '接下来您想做什么？',
    tellMore: '详细说说', example: '给我看个例子', somethingElse: '其他',
    skipped: '没问题，我们跳过这个。', okay: '好的。', chose: '谢谢，您选择了{choice}。', answered: '谢谢您的回答。',
    dateChosen: '好的，那就定在{date}。', rangeChosen: '好的，从{start}到{end}。', noted: '谢谢，我已记下{value}。', booked: '您的预约已确认。谢谢！',
  },
  ko: {
    timesLine: '화면에 몇 가지 시간을 띄워 드렸어요. 편하신 시간을 골라 주세요.', timesTitle: '편하신 시간을 골라 주세요',
    optionsLine: '화면에 선택지를 띄워 드렸어요.', whichOne: '어느 것을 원하세요?', whatNext: '다음으로 무엇을 하시겠어요?',
    tellMore: '더 알려 주세요', example: '예시를 보여 주세요', somethingElse: '기타',
    skipped: '괜찮습니다. 건너뛸게요.', okay: '알겠습니다.', chose: '감사합니다. {choice}을(를) 선택하셨어요.', answered: '답변해 주셔서 감사합니다.',
    dateChosen: '좋습니다. {date}로 하겠습니다.', rangeChosen: '좋습니다. {start}부터 {end}까지입니다.', noted: '감사합니다. {value}을(를) 메모했어요.', booked: '예약이 확정되었습니다. 감사합니다!',
  },
};
