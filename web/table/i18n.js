// The page's own sentences, in English, French and Bulgarian. What the server says (a
// refusal, a bid's name, a deal's result) comes already in the person's language; these are
// only the page's frame around it. {name} in a text is replaced by a value, as text.

const TEXTS = {
  en: {
    title: "Belote table",
    connecting: "Connecting…",
    live: "Live",
    reconnecting: "Connection lost: trying again in {s} s",
    offline: "No network: waiting for it to come back",
    "no-link": "Open the table with the link the bot gave you (/web in the chat).",
    gone: "This table is over or gone.",
    refused: "This link cannot open the table.",
    watching: "You are watching: the players' hands stay hidden.",
    "your-turn": "Your turn",
    "your-turn-s": "Your turn · {s} s",
    "waiting-for": "Waiting for {name}",
    "waiting-for-s": "Waiting for {name} · {s} s",
    lobby: "Waiting for the match to start.",
    seeds: "Waiting for the players' seeds (type /seed in the chat).",
    drand: "Waiting for drand's round to deal.",
    sending: "Sending…",
    "queued": "Not connected: your move is sent when the line is back.",
    dealer: "Dealer",
    "dealer-short": "D",
    team: "Team {team}",
    bot: "bot",
    away: "away",
    left: "left",
    you: "you",
    "to-target": "to {target}",
    deal: "Deal {n}",
    tricks: "Tricks {a}–{b}",
    contract: "{contract} · {name}",
    turned: "Turned: ",
    "last-trick": "Last trick",
    "hide-last": "Back to the trick",
    "last-winner": "Won by {name}",
    auction: "Auction",
    "no-bids": "No bid yet.",
    result: "Last deal",
    "over-win": "Team {team} wins the match",
    "over-aborted": "The match was stopped.",
    "over-score": "{a} to {b}",
    seed: "Server seed:",
    verify: "Check this match in your browser",
    "pick-suit": "{value}: pick the suit",
    back: "← Back",
    "card-illegal": "That card cannot be played now.",
    "not-your-turn": "It is not your turn.",
    "im-back": "I'm back: let me play",
    "away-prompt": "A bot plays your turns while you are away.",
  },
  fr: {
    title: "Table de belote",
    connecting: "Connexion…",
    live: "En direct",
    reconnecting: "Connexion perdue : nouvel essai dans {s} s",
    offline: "Pas de réseau : en attente de son retour",
    "no-link": "Ouvrez la table avec le lien que le bot vous a donné (/web dans le chat).",
    gone: "Cette table est terminée ou n'existe plus.",
    refused: "Ce lien ne peut pas ouvrir la table.",
    watching: "Vous regardez : les mains des joueurs restent cachées.",
    "your-turn": "À vous",
    "your-turn-s": "À vous · {s} s",
    "waiting-for": "On attend {name}",
    "waiting-for-s": "On attend {name} · {s} s",
    lobby: "En attente du début de la partie.",
    seeds: "En attente des graines des joueurs (tapez /seed dans le chat).",
    drand: "En attente du tour de drand pour distribuer.",
    sending: "Envoi…",
    queued: "Pas connecté : votre coup part dès le retour de la ligne.",
    dealer: "Donneur",
    "dealer-short": "D",
    team: "Équipe {team}",
    bot: "bot",
    away: "absent",
    left: "parti",
    you: "vous",
    "to-target": "en {target}",
    deal: "Donne {n}",
    tricks: "Plis {a}–{b}",
    contract: "{contract} · {name}",
    turned: "Retournée : ",
    "last-trick": "Dernier pli",
    "hide-last": "Retour au pli",
    "last-winner": "Pris par {name}",
    auction: "Enchères",
    "no-bids": "Pas encore d'enchère.",
    result: "Dernière donne",
    "over-win": "L'équipe {team} gagne la partie",
    "over-aborted": "La partie a été arrêtée.",
    "over-score": "{a} à {b}",
    seed: "Graine du serveur :",
    verify: "Vérifier cette partie dans votre navigateur",
    "pick-suit": "{value} : choisissez la couleur",
    back: "← Retour",
    "card-illegal": "Cette carte ne peut pas être jouée maintenant.",
    "not-your-turn": "Ce n'est pas votre tour.",
    "im-back": "Je suis là : je rejoue",
    "away-prompt": "Un bot joue vos tours pendant votre absence.",
  },
  bg: {
    title: "Маса за белот",
    connecting: "Свързване…",
    live: "На живо",
    reconnecting: "Връзката прекъсна: нов опит след {s} с",
    offline: "Няма мрежа: изчакване да се върне",
    "no-link": "Отворете масата с връзката, която ботът ви даде (/web в чата).",
    gone: "Тази маса е приключила или вече я няма.",
    refused: "Тази връзка не може да отвори масата.",
    watching: "Вие гледате: ръцете на играчите остават скрити.",
    "your-turn": "Ваш ред",
    "your-turn-s": "Ваш ред · {s} с",
    "waiting-for": "Чака се {name}",
    "waiting-for-s": "Чака се {name} · {s} с",
    lobby: "Изчаква се началото на играта.",
    seeds: "Изчакват се семената на играчите (напишете /seed в чата).",
    drand: "Изчаква се кръгът на drand за раздаване.",
    sending: "Изпращане…",
    queued: "Няма връзка: ходът ви ще бъде изпратен, щом линията се върне.",
    dealer: "Раздава",
    "dealer-short": "Р",
    team: "Отбор {team}",
    bot: "бот",
    away: "отсъства",
    left: "напусна",
    you: "вие",
    "to-target": "до {target}",
    deal: "Раздаване {n}",
    tricks: "Ръце {a}–{b}",
    contract: "{contract} · {name}",
    turned: "Обърната: ",
    "last-trick": "Последна ръка",
    "hide-last": "Обратно към ръката",
    "last-winner": "Взета от {name}",
    auction: "Обявяване",
    "no-bids": "Още няма обява.",
    result: "Последно раздаване",
    "over-win": "Отбор {team} печели играта",
    "over-aborted": "Играта беше спряна.",
    "over-score": "{a} на {b}",
    seed: "Семе на сървъра:",
    verify: "Проверете тази игра в браузъра си",
    "pick-suit": "{value}: изберете боя",
    back: "← Назад",
    "card-illegal": "Тази карта не може да се играе сега.",
    "not-your-turn": "Не е ваш ред.",
    "im-back": "Върнах се: играя пак",
    "away-prompt": "Бот играе вместо вас, докато отсъствате.",
  },
};

export const LANGS = Object.keys(TEXTS);

let current = "en";

/** The page's language from a locale ("fr", "fr-FR", "bg-BG"), else English. */
export function pick(locale) {
  const primary = String(locale || "").toLowerCase().split(/[-_]/)[0];
  return LANGS.includes(primary) ? primary : null;
}

export function setLang(lang) {
  current = pick(lang) || "en";
  document.documentElement.lang = current;
  document.title = t("title");
  return current;
}

export function lang() {
  return current;
}

/** The text of ``key`` in the page's language, ``{name}`` replaced by ``vars.name``. */
export function t(key, vars = {}) {
  const text = TEXTS[current][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}
