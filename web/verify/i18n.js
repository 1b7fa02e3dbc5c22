// Every sentence the page shows, in English, French and Bulgarian: one table per language,
// here and nowhere else. The page follows the browser's language (navigator.languages),
// ?lang=xx or the switch at the top overrides it (and is remembered on this device).
// Elements with data-i18n="key" get the text of that key. {name} in a text is replaced by
// a value, always as text, never as markup.
// A classic script (no modules), so that the page also works opened from disk (file://).

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  const TEXTS = {
    en: {
      "page-title": "Check a Belote match · fair deal",
      heading: "Check a Belote match",
      intro:
        "Every deck of a match is made from the server's seed, the players' seeds and drand's public value. This page makes every deck again on your device, from the match's transcript alone, replays every bid and card by the rules, counts every deal and checks all of it against what was dealt and scored. Your transcript is not sent anywhere: the page asks drand for the value of one round (only when the box below is ticked), and fetches the transcript itself only when its address names one (#url=…).",
      broken:
        "This page's scripts did not run. Keep index.html with its files (style.css, the .js files and the vendor folder) in one folder, allow JavaScript for it, or open the published page.",
      drop: "Drop the transcript here (the .json file the bot's /verify attaches, or belote export writes),",
      choose: "choose the file",
      "or-paste": "or paste it below.",
      check: "Check",
      online:
        "Ask drand itself for the round's value (sends only the round number to a drand relay)",
      language: "Language",
      inputs: "The inputs of every deck",
      "replay-deal": "Deal",
      "replay-start": "|◀ Start",
      "replay-back": "◀ Back",
      "replay-play": "▶ Play",
      "replay-pause": "⏸ Pause",
      "replay-next": "Next ▶",
      "replay-end": "End ▶|",
      "replay-speed": "Speed",
      footer:
        "How a deck is made: the README's fair-deal recipe and docs/fairdeal.md. BLS signatures by noble-curves (MIT). This page is static: save it with its files and open it from disk or any web server.",
      // states and verdicts
      checking: "Checking…",
      "title-match": "Match {match}",
      "title-error": "Not a match transcript",
      "title-fetch": "No transcript",
      "not-transcript": "This is not a match transcript: {why}",
      "fetch-failed": "Could not fetch the transcript from {url}: {why}",
      "read-failed": "Could not read the file: {why}",
      "too-big":
        "This file is {size} MB: a transcript of any real match is far smaller (the page reads up to {max} MB).",
      broke: "The check stopped on an error in this page ({why}): nothing is verified.",
      "verdict-fair": "Every check passed: the deals were fair. Team {team} won {won} to {lost}.",
      "verdict-fair-plain": "Every check passed: the deals were fair.",
      "verdict-unfair": "{count} checks failed ({names}): this match's deals cannot be trusted.",
      "verdict-unfair-one": "1 check failed ({names}): this match's deals cannot be trusted.",
      "verdict-deal": "The first deal that went wrong is deal {deal}.",
      "verdict-unrevealed":
        "Not verified: the server has not revealed its seed, so no deck can be checked yet. Check again once the match has ended.",
      "verdict-not-verified":
        "Not verified: {names} could not be checked. Nothing here says the deals were fair.",
      "verdict-every-deck":
        "Every deck differs from the recipe's: an input is not the one the match was dealt from (the server seed, a seat's seed, or drand's value).",
      folded:
        "{count} more checks passed (every deck, hand, card and score of deals {from} to {to}).",
      "mark-ok": "✓ ok",
      "mark-fail": "✗ FAILED",
      "mark-unchecked": "? not checked",
      "mark-skip": "– not asked",
      // check names
      "name-commitment": "commitment",
      "name-drand": "drand",
      "name-drand online": "drand online",
      "name-table": "table",
      "name-inputs": "inputs",
      "name-replay": "replay",
      "name-result": "result",
      "name-deck": "deal {n}: deck",
      "name-hands": "deal {n}: hands",
      "name-play": "deal {n}: play",
      "name-score": "deal {n}: score",
      // the inputs list
      "in-ruleset": "Ruleset",
      "in-target": "{ruleset}, to {target}",
      "in-options": "Table options",
      "in-commitment": "Commitment (shown before the seeds)",
      "in-seed": "Server seed (revealed at the end)",
      "in-unrevealed": "not revealed yet",
      "in-seat": "Seat {seat}: {name}",
      "in-seat-bot": "Seat {seat}: {name} (bot)",
      "in-no-seed": "no seed",
      "in-drand": "drand quicknet round {round}",
      "in-drand-when": "drand quicknet round {round} (published {when})",
      "in-signature": "drand signature",
      "in-no-drand": "none: dealt from the seeds alone",
      // the checks
      "commitment-unrevealed":
        "The server has not revealed its seed yet: the match can be checked once it ends.",
      "commitment-not-hex": "The server seed is not 64 hexadecimal digits.",
      "commitment-ok": "The server seed {seed} hashes to the commitment shown before the seeds.",
      "commitment-differs":
        "The server seed hashes to {digest}, not to the commitment {commitment} shown before the seeds: the server changed its seed.",
      "drand-none":
        "Dealt without drand (its value had not arrived in time): from the server's seed and the players' seeds alone.",
      "drand-chain": "Unknown drand chain {chain}; expected quicknet.",
      "drand-round": "{round} is not a drand round (1 to 2^53 - 1).",
      "drand-not-hex": "The drand value or signature is not hexadecimal.",
      "drand-ok":
        "drand round {round}'s value is signed by quicknet's key (BLS signature checked).",
      "drand-bad":
        "The drand value for round {round} is not quicknet's: its signature does not check against quicknet's public key.",
      "online-not-asked":
        "Not asked: drand's own answer was not requested (the signature check above does not need it).",
      "online-unreachable":
        "Could not get round {round} from drand ({why}); the signature check above does not need it.",
      "online-ok": "drand itself ({host}) serves the same value for round {round}.",
      "online-differs":
        "drand ({host}) serves {served} for round {round}, not the value the match was dealt from.",
      "table-recipe": "Unknown recipe {recipe}; this page knows {known}. Nothing else is checked.",
      "table-ruleset":
        "Unknown ruleset {ruleset}; the bot plays classic, club, bulgarian and coinche. Nothing else is checked.",
      "table-seats": "{seats} seats: every ruleset is played by 4. Nothing else is checked.",
      "table-target":
        "The target {target} is not a positive number of points. Nothing else is checked.",
      "table-option-unknown":
        "Unknown option {option}: the options are {known}. Nothing else is checked.",
      "table-option-ruleset":
        "The option {option} is for {rulesets} tables only. Nothing else is checked.",
      "table-target-range":
        "The target must be a whole number from {low} to {high}. Nothing else is checked.",
      "table-ok": "{ruleset}{options}, 4 seats, the 32-card deck, recipe {recipe}.",
      "inputs-server": "The server seed is not 64 hexadecimal digits.",
      "inputs-seat": "Seat {seat}'s seed is not 32 hexadecimal digits.",
      "inputs-drand": "The drand round or value cannot be read.",
      "replay-broke": "The replay broke down ({why}): not verified.",
      "deck-k": "Recorded as deck k={k}; deal {n} is dealt from deck k={want}.",
      "deck-size": "The deck has {size} cards; every ruleset deals the {want}-card deck.",
      "deck-ok": "Deck k={k} is the one the recipe makes from the seeds.",
      "deck-differs":
        "Deck k={k} differs from the recipe's from card {card} on (recipe: {recipe}…).",
      "hands-dealer": "Seat {seat} dealt, not seat {told}.",
      "hands-turned": "The turned card was {card}, not {told}.",
      "hands-count": "{count} hands are recorded, not 4.",
      "hands-seat": "Seat {seat} was dealt {dealt}, not {told}.",
      "hands-ok": "Every hand is what the deck deals, packet by packet.",
      "never-dealt": "The match was over after deal {before}: deal {n} was never dealt.",
      "not-checked-after": "Not checked: deal {failed} failed.",
      "play-thrown-bid": "Recorded as thrown in, yet seat {seat} says “{action}”.",
      "play-after-end": "Action {n} (“{action}” by seat {seat}) comes after the deal ended.",
      "play-refused": "Action {n} (“{action}” by seat {seat}) breaks the rules: {why}",
      "play-stopped": "The match stopped during this deal.",
      "play-not-over": "The deal is not over after its recorded actions.",
      "play-contract": "The bidding gives the contract {made}, not {told}.",
      "play-ok-thrown": "As the rules allow: everybody passed, thrown in.",
      "play-ok":
        "As the rules allow: contract {contract}, taken by seat {seat}; {count} actions, every bid and card legal.",
      "play-thrown-scored":
        "Recorded as thrown in, yet the totals carried into deal {n} count points scored in it: deal {m} was played.",
      "play-thrown-last":
        "Recorded as thrown in, yet the match ends after it: a match ends on a played deal, so deal {m} was played (or a deal after it is missing).",
      "score-never-ended": "Not counted: the deal never ended.",
      "score-play-failed": "Not checked: the play failed.",
      "score-contract-differs": "Not checked: the contract differs.",
      "score-ok-thrown": "Nothing scored (thrown in).",
      "score-ok": "The count of the cards, melds and belote gives the recorded score.",
      "score-differs": "The cards give {made}, not the recorded {told} ({field} differs).",
      "result-never-ended": "Not verified: the match never ended.",
      "result-missing":
        "The match is not over after the {count} deals recorded: deal {missing} is missing (team A {a}, team B {b} so far).",
      "result-ok": "Team {team} won {won} to {lost}, as the replay gives.",
      "result-differs":
        "The replay gives: team {team} won {won} to {lost}; the transcript says {told}.",
      // the replay
      dealer: "dealer",
      took: "took",
      bot: "bot",
      turned: "Turned: ",
      bidding: "Bidding",
      redealt: "Everybody passed: thrown in",
      "deal-of": "{n} of {count}",
      "deal-of-thrown": "{n} of {count} (thrown in)",
      "taken-by": "{trump}, taken by {name}",
      "tricks-a": "Tricks {a} & {c}: {count}",
      "tricks-b": "{b} & {d}: {count}",
      "as-dealt": "as dealt",
      "end-of-deal": "end of the deal",
      "trick-card": "trick {trick} of {tricks}, card {card}",
      head: "Match {match} · deal {n}",
      "contract-outcome": "Contract {outcome}",
      "deal-over": "Deal over",
      "card-points": "Card points",
      tricks: "Tricks",
      melds: "Melds",
      belote: "Belote",
      scored: "Scored",
      "match-total": "Match",
      "team-a": "Team A",
      "team-b": "Team B",
      "trump-C": "Clubs",
      "trump-D": "Diamonds",
      "trump-H": "Hearts",
      "trump-S": "Spades",
      "trump-NT": "No trump",
      "trump-AT": "All trump",
      "outcome-made": "made",
      "outcome-set": "set",
      "outcome-dispute": "disputed",
      "outcome-hanging": "hanging",
      "why-unknown": "“{action}” is not an action of the game.",
      "why-ruleset": "the ruleset {ruleset} is not one the bot plays.",
      "why-target": "the target is not a positive number of points.",
      "why-over": "the match was already over.",
      "why-no-seat": "there is no seat {seat} at the table.",
      "why-turn": "it is seat {turn}'s turn, not seat {seat}'s.",
      "why-bidding": "the bidding is not over yet.",
      "why-dealer-must": "the dealer must name a trump now (club).",
      "why-no-double": "nobody may say {action} now.",
      "why-no-value": "a bid has no value in {ruleset}: it names a contract (bid {contract}).",
      "why-no-turned": "nothing is turned up in this ruleset.",
      "why-take-round": "the turned card can only be taken in the first round.",
      "why-round1": "in the first round a seat takes the turned suit or passes.",
      "why-contract": "{contract} is not a contract in {ruleset}.",
      "why-round2": "in the second round a seat names a suit other than the turned one.",
      "why-higher": "a call must be higher than the current contract.",
      "why-play": "the bidding is over: a card must be played.",
      "why-not-held": "seat {seat} does not hold {card}.",
      "why-follow":
        "{card} does not follow suit though the seat holds a {suit} (it may play {allowed}).",
      "why-beat":
        "{card} does not beat the highest {suit} though the seat can (it may play {allowed}).",
      "why-overtrump": "{card} does not overtrump though the seat can (it may play {allowed}).",
      "why-trump":
        "{card} is not a trump though the seat holds a {suit} and cannot follow (it may play {allowed}).",
      "why-only": "the rules allow only {allowed} here, not {card}.",
      "why-belote":
        "belote is announced with the king or queen of trump, holding both: not with {card}.",
      "why-melds": "melds are declared with a seat's first card, and only when it holds one.",
      "why-options": "the table's options are not ones its ruleset has.",
      "why-coinche-no-bid": "there is no bid to coinche yet.",
      "why-coinche-twice": "the bid is already coinched.",
      "why-coinche-own-side": "only an opponent of the last bidder may coinche.",
      "why-surcoinche-defence": "only the bidding side may surcoinche.",
      "why-surcoinche-no-coinche": "a surcoinche answers a coinche of the seat's own side's bid.",
      "why-bid-value": "a bid says its value and its suit (bid 80 H).",
      "why-bid-after-coinche": "after a coinche nobody bids again: pass or surcoinche.",
      "why-bid-contract": "{contract} is not a contract at this table.",
      "why-bid-range": "a bid is 80 to 160 in tens, or capot (générale when the table allows it).",
      "why-bid-higher": "a bid must be higher than the standing bid.",
      "why-bid-kind": "in coinche a seat bids, passes, coinches or surcoinches.",
      "bid-capot": "capot",
      "bid-generale": "générale",
      coinche: "coinche",
      surcoinche: "surcoinche",
      "suit-C": "club",
      "suit-D": "diamond",
      "suit-H": "heart",
      "suit-S": "spade",
    },
    fr: {
      "page-title": "Vérifier une partie de belote · donne équitable",
      heading: "Vérifier une partie de belote",
      intro:
        "Chaque paquet d'une partie est fait à partir de la graine du serveur, des graines des joueurs et de la valeur publique de drand. Cette page refait chaque paquet sur votre appareil, à partir du seul relevé de la partie, rejoue chaque annonce et chaque carte selon les règles, compte chaque donne et compare le tout avec ce qui a été distribué et marqué. Votre relevé n'est envoyé nulle part : la page demande à drand la valeur d'un tour (seulement si la case ci-dessous est cochée) et ne télécharge le relevé que si son adresse en indique un (#url=…).",
      broken:
        "Les scripts de cette page ne se sont pas exécutés. Gardez index.html avec ses fichiers (style.css, les fichiers .js et le dossier vendor) dans un même dossier, autorisez JavaScript pour lui, ou ouvrez la page publiée.",
      drop: "Déposez le relevé ici (le fichier .json joint par /verify du bot, ou écrit par belote export),",
      choose: "choisissez le fichier",
      "or-paste": "ou collez-le ci-dessous.",
      check: "Vérifier",
      online:
        "Demander à drand lui-même la valeur du tour (n'envoie que le numéro du tour à un relais drand)",
      language: "Langue",
      inputs: "Les données de chaque paquet",
      "replay-deal": "Donne",
      "replay-start": "|◀ Début",
      "replay-back": "◀ Retour",
      "replay-play": "▶ Lecture",
      "replay-pause": "⏸ Pause",
      "replay-next": "Suivant ▶",
      "replay-end": "Fin ▶|",
      "replay-speed": "Vitesse",
      footer:
        "Comment un paquet est fait : la recette de donne équitable du README et docs/fairdeal.md. Signatures BLS par noble-curves (MIT). Cette page est statique : enregistrez-la avec ses fichiers et ouvrez-la depuis le disque ou n'importe quel serveur web.",
      checking: "Vérification…",
      "title-match": "Partie {match}",
      "title-error": "Ce n'est pas un relevé de partie",
      "title-fetch": "Pas de relevé",
      "not-transcript": "Ce n'est pas un relevé de partie : {why}",
      "fetch-failed": "Impossible de télécharger le relevé depuis {url} : {why}",
      "read-failed": "Impossible de lire le fichier : {why}",
      "too-big":
        "Ce fichier fait {size} Mo : le relevé d'une vraie partie est bien plus petit (la page lit jusqu'à {max} Mo).",
      broke:
        "La vérification s'est arrêtée sur une erreur de cette page ({why}) : rien n'est vérifié.",
      "verdict-fair":
        "Toutes les vérifications sont passées : les donnes étaient équitables. L'équipe {team} a gagné {won} à {lost}.",
      "verdict-fair-plain":
        "Toutes les vérifications sont passées : les donnes étaient équitables.",
      "verdict-unfair":
        "{count} vérifications ont échoué ({names}) : on ne peut pas se fier aux donnes de cette partie.",
      "verdict-unfair-one":
        "1 vérification a échoué ({names}) : on ne peut pas se fier aux donnes de cette partie.",
      "verdict-deal": "La première donne fautive est la donne {deal}.",
      "verdict-unrevealed":
        "Non vérifié : le serveur n'a pas encore révélé sa graine, aucun paquet ne peut donc être vérifié. Revenez une fois la partie terminée.",
      "verdict-not-verified":
        "Non vérifié : {names} n'a pas pu être vérifié. Rien ici ne dit que les donnes étaient équitables.",
      "verdict-every-deck":
        "Tous les paquets diffèrent de ceux de la recette : une donnée n'est pas celle de la partie (la graine du serveur, celle d'une place, ou la valeur de drand).",
      folded:
        "{count} autres vérifications sont passées (chaque paquet, main, carte et marque des donnes {from} à {to}).",
      "mark-ok": "✓ ok",
      "mark-fail": "✗ ÉCHEC",
      "mark-unchecked": "? non vérifié",
      "mark-skip": "– non demandé",
      "name-commitment": "engagement",
      "name-drand": "drand",
      "name-drand online": "drand en ligne",
      "name-table": "table",
      "name-inputs": "données",
      "name-replay": "rejeu",
      "name-result": "résultat",
      "name-deck": "donne {n} : paquet",
      "name-hands": "donne {n} : mains",
      "name-play": "donne {n} : jeu",
      "name-score": "donne {n} : marque",
      "in-ruleset": "Règles",
      "in-target": "{ruleset}, en {target}",
      "in-options": "Options de la table",
      "in-commitment": "Engagement (montré avant les graines)",
      "in-seed": "Graine du serveur (révélée à la fin)",
      "in-unrevealed": "pas encore révélée",
      "in-seat": "Place {seat} : {name}",
      "in-seat-bot": "Place {seat} : {name} (robot)",
      "in-no-seed": "pas de graine",
      "in-drand": "drand quicknet, tour {round}",
      "in-drand-when": "drand quicknet, tour {round} (publié le {when})",
      "in-signature": "signature drand",
      "in-no-drand": "aucun : distribué à partir des seules graines",
      "commitment-unrevealed":
        "Le serveur n'a pas encore révélé sa graine : la partie pourra être vérifiée une fois terminée.",
      "commitment-not-hex": "La graine du serveur n'est pas faite de 64 chiffres hexadécimaux.",
      "commitment-ok":
        "Le hachage de la graine du serveur {seed} est bien l'engagement montré avant les graines.",
      "commitment-differs":
        "Le hachage de la graine du serveur est {digest}, pas l'engagement {commitment} montré avant les graines : le serveur a changé de graine.",
      "drand-none":
        "Distribué sans drand (sa valeur n'était pas arrivée à temps) : à partir des seules graines du serveur et des joueurs.",
      "drand-chain": "Chaîne drand inconnue {chain} ; quicknet était attendue.",
      "drand-round": "{round} n'est pas un tour de drand (1 à 2^53 - 1).",
      "drand-not-hex": "La valeur ou la signature de drand n'est pas hexadécimale.",
      "drand-ok":
        "La valeur du tour {round} de drand est signée par la clé de quicknet (signature BLS vérifiée).",
      "drand-bad":
        "La valeur de drand pour le tour {round} n'est pas celle de quicknet : sa signature ne correspond pas à la clé publique de quicknet.",
      "online-not-asked":
        "Non demandé : la réponse de drand elle-même n'a pas été demandée (la vérification de la signature ci-dessus n'en a pas besoin).",
      "online-unreachable":
        "Impossible d'obtenir le tour {round} de drand ({why}) ; la vérification de la signature ci-dessus n'en a pas besoin.",
      "online-ok": "drand lui-même ({host}) donne la même valeur pour le tour {round}.",
      "online-differs":
        "drand ({host}) donne {served} pour le tour {round}, et non la valeur à partir de laquelle la partie a été distribuée.",
      "table-recipe":
        "Recette inconnue {recipe} ; cette page connaît {known}. Rien d'autre n'est vérifié.",
      "table-ruleset":
        "Règles inconnues {ruleset} ; le bot joue classic, club, bulgarian et coinche. Rien d'autre n'est vérifié.",
      "table-seats":
        "{seats} places : toutes les règles se jouent à 4. Rien d'autre n'est vérifié.",
      "table-target":
        "L'objectif {target} n'est pas un nombre de points positif. Rien d'autre n'est vérifié.",
      "table-option-unknown":
        "Option inconnue {option} : les options sont {known}. Rien d'autre n'est vérifié.",
      "table-option-ruleset":
        "L'option {option} n'existe qu'aux tables {rulesets}. Rien d'autre n'est vérifié.",
      "table-target-range":
        "L'objectif doit être un nombre entier de {low} à {high}. Rien d'autre n'est vérifié.",
      "table-ok": "{ruleset}{options}, 4 places, le jeu de 32 cartes, recette {recipe}.",
      "inputs-server": "La graine du serveur n'est pas faite de 64 chiffres hexadécimaux.",
      "inputs-seat": "La graine de la place {seat} n'est pas faite de 32 chiffres hexadécimaux.",
      "inputs-drand": "Le tour ou la valeur de drand est illisible.",
      "replay-broke": "Le rejeu s'est interrompu ({why}) : non vérifié.",
      "deck-k": "Noté comme paquet k={k} ; la donne {n} est distribuée avec le paquet k={want}.",
      "deck-size":
        "Le paquet a {size} cartes ; toutes les règles se jouent avec le jeu de {want} cartes.",
      "deck-ok": "Le paquet k={k} est bien celui que la recette fait à partir des graines.",
      "deck-differs":
        "Le paquet k={k} diffère de celui de la recette à partir de la carte {card} (recette : {recipe}…).",
      "hands-dealer": "C'est la place {seat} qui a donné, pas la place {told}.",
      "hands-turned": "La carte retournée était {card}, pas {told}.",
      "hands-count": "{count} mains sont notées, pas 4.",
      "hands-seat": "La place {seat} a reçu {dealt}, pas {told}.",
      "hands-ok": "Chaque main est celle que le paquet donne, paquet par paquet.",
      "never-dealt":
        "La partie était finie après la donne {before} : la donne {n} n'a jamais été distribuée.",
      "not-checked-after": "Non vérifié : la donne {failed} a échoué.",
      "play-thrown-bid":
        "Notée comme donne où tout le monde a passé, mais la place {seat} dit « {action} ».",
      "play-after-end":
        "L'action {n} (« {action} » par la place {seat}) vient après la fin de la donne.",
      "play-refused": "L'action {n} (« {action} » par la place {seat}) enfreint les règles : {why}",
      "play-stopped": "La partie s'est arrêtée pendant cette donne.",
      "play-not-over": "La donne n'est pas finie après les actions notées.",
      "play-contract": "Les enchères donnent le contrat {made}, pas {told}.",
      "play-ok-thrown": "Conforme aux règles : tout le monde a passé, donne annulée.",
      "play-ok":
        "Conforme aux règles : contrat {contract}, pris par la place {seat} ; {count} actions, chaque annonce et chaque carte permises.",
      "play-thrown-scored":
        "Notée comme donne annulée, mais les totaux reportés dans la donne {n} comptent des points marqués pendant celle-ci : la donne {m} a été jouée.",
      "play-thrown-last":
        "Notée comme donne annulée, mais la partie se termine après elle : une partie se termine sur une donne jouée, la donne {m} a donc été jouée (ou une donne après elle manque).",
      "score-never-ended": "Non compté : la donne ne s'est jamais terminée.",
      "score-play-failed": "Non vérifié : le jeu a échoué.",
      "score-contract-differs": "Non vérifié : le contrat diffère.",
      "score-ok-thrown": "Rien de marqué (donne annulée).",
      "score-ok": "Le compte des cartes, des annonces et de la belote donne la marque notée.",
      "score-differs": "Les cartes donnent {made}, pas la marque notée {told} ({field} diffère).",
      "result-never-ended": "Non vérifié : la partie ne s'est jamais terminée.",
      "result-missing":
        "La partie n'est pas finie après les {count} donnes notées : la donne {missing} manque (équipe A {a}, équipe B {b} jusque-là).",
      "result-ok": "L'équipe {team} a gagné {won} à {lost}, comme le donne le rejeu.",
      "result-differs":
        "Le rejeu donne : l'équipe {team} a gagné {won} à {lost} ; le relevé dit {told}.",
      dealer: "donneur",
      took: "a pris",
      bot: "robot",
      turned: "Retournée : ",
      bidding: "Enchères",
      redealt: "Tout le monde a passé : donne annulée",
      "deal-of": "{n} sur {count}",
      "deal-of-thrown": "{n} sur {count} (annulée)",
      "taken-by": "{trump}, pris par {name}",
      "tricks-a": "Plis {a} et {c} : {count}",
      "tricks-b": "{b} et {d} : {count}",
      "as-dealt": "à la distribution",
      "end-of-deal": "fin de la donne",
      "trick-card": "pli {trick} sur {tricks}, carte {card}",
      head: "Partie {match} · donne {n}",
      "contract-outcome": "Contrat {outcome}",
      "deal-over": "Donne finie",
      "card-points": "Points des cartes",
      tricks: "Plis",
      melds: "Annonces",
      belote: "Belote",
      scored: "Marqué",
      "match-total": "Partie",
      "team-a": "Équipe A",
      "team-b": "Équipe B",
      "trump-C": "Trèfle",
      "trump-D": "Carreau",
      "trump-H": "Cœur",
      "trump-S": "Pique",
      "trump-NT": "Sans atout",
      "trump-AT": "Tout atout",
      "outcome-made": "réussi",
      "outcome-set": "chuté",
      "outcome-dispute": "litige",
      "outcome-hanging": "en suspens",
      "why-unknown": "« {action} » n'est pas une action du jeu.",
      "why-ruleset": "les règles {ruleset} ne sont pas de celles que joue le bot.",
      "why-target": "l'objectif n'est pas un nombre de points positif.",
      "why-over": "la partie était déjà finie.",
      "why-no-seat": "il n'y a pas de place {seat} à la table.",
      "why-turn": "c'est au tour de la place {turn}, pas de la place {seat}.",
      "why-bidding": "les enchères ne sont pas finies.",
      "why-dealer-must": "le donneur doit nommer un atout maintenant (club).",
      "why-no-double": "personne ne peut dire {action} maintenant.",
      "why-no-value":
        "une enchère n'a pas de valeur en {ruleset} : elle nomme un contrat (bid {contract}).",
      "why-no-turned": "aucune carte n'est retournée avec ces règles.",
      "why-take-round": "la carte retournée ne peut être prise qu'au premier tour.",
      "why-round1": "au premier tour, on prend la couleur retournée ou on passe.",
      "why-contract": "{contract} n'est pas un contrat en {ruleset}.",
      "why-round2": "au second tour, on nomme une autre couleur que celle retournée.",
      "why-higher": "une annonce doit être plus haute que le contrat en cours.",
      "why-play": "les enchères sont finies : il faut jouer une carte.",
      "why-not-held": "la place {seat} n'a pas {card}.",
      "why-follow":
        "{card} ne fournit pas alors que la place a du {suit} (elle peut jouer {allowed}).",
      "why-beat":
        "{card} ne monte pas sur le plus fort {suit} alors que la place le peut (elle peut jouer {allowed}).",
      "why-overtrump":
        "{card} ne surcoupe pas alors que la place le peut (elle peut jouer {allowed}).",
      "why-trump":
        "{card} n'est pas un atout alors que la place a du {suit} et ne peut pas fournir (elle peut jouer {allowed}).",
      "why-only": "les règles ne permettent ici que {allowed}, pas {card}.",
      "why-belote":
        "la belote s'annonce avec le roi ou la dame d'atout quand on a les deux : pas avec {card}.",
      "why-melds":
        "les annonces se déclarent avec la première carte d'une place, et seulement si elle en a.",
      "why-options": "les options de la table n'existent pas dans ses règles.",
      "why-coinche-no-bid": "il n'y a encore aucune enchère à coincher.",
      "why-coinche-twice": "l'enchère est déjà coinchée.",
      "why-coinche-own-side": "seul un adversaire du dernier enchérisseur peut coincher.",
      "why-surcoinche-defence": "seul le camp qui a enchéri peut surcoincher.",
      "why-surcoinche-no-coinche":
        "on surcoinche en réponse à une coinche de l'enchère de son camp.",
      "why-bid-value": "une enchère dit sa valeur et sa couleur (bid 80 H).",
      "why-bid-after-coinche":
        "après une coinche, plus personne n'enchérit : passer ou surcoincher.",
      "why-bid-contract": "{contract} n'est pas un contrat à cette table.",
      "why-bid-range":
        "une enchère va de 80 à 160 par dizaines, ou capot (générale si la table le permet).",
      "why-bid-higher": "une enchère doit être plus haute que l'enchère en cours.",
      "why-bid-kind": "à la coinche, on enchérit, on passe, on coinche ou on surcoinche.",
      "bid-capot": "capot",
      "bid-generale": "générale",
      coinche: "coinchée",
      surcoinche: "surcoinchée",
      "suit-C": "trèfle",
      "suit-D": "carreau",
      "suit-H": "cœur",
      "suit-S": "pique",
    },
    bg: {
      "page-title": "Проверка на игра на белот · честно раздаване",
      heading: "Проверка на игра на белот",
      intro:
        "Всяко тесте в една игра се прави от семето на сървъра, семената на играчите и публичната стойност на drand. Тази страница прави наново всяко тесте на вашето устройство, само от записа на играта, преиграва всяка обява и всяка карта по правилата, преброява всяко раздаване и сравнява всичко с раздаденото и записаните точки. Записът ви не се изпраща никъде: страницата пита drand за стойността на един рунд (само ако полето по-долу е отметнато) и изтегля записа само когато адресът ѝ сочи такъв (#url=…).",
      broken:
        "Скриптовете на тази страница не се изпълниха. Дръжте index.html с файловете му (style.css, файловете .js и папката vendor) в една папка, разрешете JavaScript за нея или отворете публикуваната страница.",
      drop: "Пуснете записа тук (файлът .json, който /verify на бота прилага или belote export записва),",
      choose: "изберете файла",
      "or-paste": "или го поставете по-долу.",
      check: "Провери",
      online:
        "Попитай самия drand за стойността на рунда (изпраща само номера на рунда до релей на drand)",
      language: "Език",
      inputs: "Входните данни на всяко тесте",
      "replay-deal": "Раздаване",
      "replay-start": "|◀ Начало",
      "replay-back": "◀ Назад",
      "replay-play": "▶ Пусни",
      "replay-pause": "⏸ Пауза",
      "replay-next": "Напред ▶",
      "replay-end": "Край ▶|",
      "replay-speed": "Скорост",
      footer:
        "Как се прави тесте: рецептата за честно раздаване в README и docs/fairdeal.md. BLS подписи с noble-curves (MIT). Страницата е статична: запазете я с файловете ѝ и я отворете от диска или от който и да е уеб сървър.",
      checking: "Проверка…",
      "title-match": "Игра {match}",
      "title-error": "Това не е запис на игра",
      "title-fetch": "Няма запис",
      "not-transcript": "Това не е запис на игра: {why}",
      "fetch-failed": "Записът не може да се изтегли от {url}: {why}",
      "read-failed": "Файлът не може да се прочете: {why}",
      "too-big":
        "Този файл е {size} MB: записът на истинска игра е много по-малък (страницата чете до {max} MB).",
      broke: "Проверката спря поради грешка в тази страница ({why}): нищо не е проверено.",
      "verdict-fair":
        "Всички проверки минаха: раздаванията бяха честни. Отбор {team} спечели с {won} на {lost}.",
      "verdict-fair-plain": "Всички проверки минаха: раздаванията бяха честни.",
      "verdict-unfair":
        "{count} проверки не минаха ({names}): на раздаванията в тази игра не може да се вярва.",
      "verdict-unfair-one":
        "1 проверка не мина ({names}): на раздаванията в тази игра не може да се вярва.",
      "verdict-deal": "Първото сгрешено раздаване е раздаване {deal}.",
      "verdict-unrevealed":
        "Непроверено: сървърът още не е разкрил семето си, затова нито едно тесте не може да се провери. Проверете отново, когато играта свърши.",
      "verdict-not-verified":
        "Непроверено: {names} не можа да се провери. Нищо тук не казва, че раздаванията са били честни.",
      "verdict-every-deck":
        "Всяко тесте се различава от това на рецептата: някоя входна стойност не е тази, с която е раздавана играта (семето на сървъра, семето на някое място или стойността на drand).",
      folded:
        "Още {count} проверки минаха (всяко тесте, ръка, карта и резултат на раздавания от {from} до {to}).",
      "mark-ok": "✓ наред",
      "mark-fail": "✗ НЕУСПЕХ",
      "mark-unchecked": "? непроверено",
      "mark-skip": "– не е питан",
      "name-commitment": "ангажимент",
      "name-drand": "drand",
      "name-drand online": "drand онлайн",
      "name-table": "маса",
      "name-inputs": "входни данни",
      "name-replay": "преиграване",
      "name-result": "резултат",
      "name-deck": "раздаване {n}: тесте",
      "name-hands": "раздаване {n}: ръце",
      "name-play": "раздаване {n}: игра",
      "name-score": "раздаване {n}: точки",
      "in-ruleset": "Правила",
      "in-target": "{ruleset}, до {target}",
      "in-options": "Опции на масата",
      "in-commitment": "Ангажимент (показан преди семената)",
      "in-seed": "Семе на сървъра (разкрито в края)",
      "in-unrevealed": "още не е разкрито",
      "in-seat": "Място {seat}: {name}",
      "in-seat-bot": "Място {seat}: {name} (бот)",
      "in-no-seed": "без семе",
      "in-drand": "drand quicknet, рунд {round}",
      "in-drand-when": "drand quicknet, рунд {round} (публикуван {when})",
      "in-signature": "подпис на drand",
      "in-no-drand": "няма: раздадено само от семената",
      "commitment-unrevealed":
        "Сървърът още не е разкрил семето си: играта може да се провери, когато свърши.",
      "commitment-not-hex": "Семето на сървъра не е 64 шестнадесетични цифри.",
      "commitment-ok": "Хешът на семето на сървъра {seed} е ангажиментът, показан преди семената.",
      "commitment-differs":
        "Хешът на семето на сървъра е {digest}, а не ангажиментът {commitment}, показан преди семената: сървърът е сменил семето си.",
      "drand-none":
        "Раздадено без drand (стойността му не пристигна навреме): само от семето на сървъра и семената на играчите.",
      "drand-chain": "Непозната верига на drand {chain}; очаква се quicknet.",
      "drand-round": "{round} не е рунд на drand (от 1 до 2^53 - 1).",
      "drand-not-hex": "Стойността или подписът на drand не е шестнадесетичен.",
      "drand-ok":
        "Стойността на рунд {round} на drand е подписана с ключа на quicknet (BLS подписът е проверен).",
      "drand-bad":
        "Стойността на drand за рунд {round} не е на quicknet: подписът ѝ не отговаря на публичния ключ на quicknet.",
      "online-not-asked":
        "Не е питан: отговорът на самия drand не е поискан (проверката на подписа по-горе не се нуждае от него).",
      "online-unreachable":
        "Рунд {round} не можа да се получи от drand ({why}); проверката на подписа по-горе не се нуждае от него.",
      "online-ok": "Самият drand ({host}) дава същата стойност за рунд {round}.",
      "online-differs":
        "drand ({host}) дава {served} за рунд {round}, а не стойността, с която е раздавана играта.",
      "table-recipe":
        "Непозната рецепта {recipe}; тази страница знае {known}. Нищо друго не се проверява.",
      "table-ruleset":
        "Непознати правила {ruleset}; ботът играе classic, club, bulgarian и coinche. Нищо друго не се проверява.",
      "table-seats": "{seats} места: всички правила се играят от 4. Нищо друго не се проверява.",
      "table-target": "Целта {target} не е положителен брой точки. Нищо друго не се проверява.",
      "table-option-unknown":
        "Непозната опция {option}: опциите са {known}. Нищо друго не се проверява.",
      "table-option-ruleset":
        "Опцията {option} е само за маси {rulesets}. Нищо друго не се проверява.",
      "table-target-range":
        "Целта трябва да е цяло число от {low} до {high}. Нищо друго не се проверява.",
      "table-ok": "{ruleset}{options}, 4 места, тесте от 32 карти, рецепта {recipe}.",
      "inputs-server": "Семето на сървъра не е 64 шестнадесетични цифри.",
      "inputs-seat": "Семето на място {seat} не е 32 шестнадесетични цифри.",
      "inputs-drand": "Рундът или стойността на drand не могат да се прочетат.",
      "replay-broke": "Преиграването се прекъсна ({why}): непроверено.",
      "deck-k": "Записано като тесте k={k}; раздаване {n} се раздава от тесте k={want}.",
      "deck-size": "Тестето има {size} карти; всички правила раздават тесте от {want} карти.",
      "deck-ok": "Тесте k={k} е това, което рецептата прави от семената.",
      "deck-differs":
        "Тесте k={k} се различава от това на рецептата от карта {card} нататък (рецепта: {recipe}…).",
      "hands-dealer": "Раздаде място {seat}, а не място {told}.",
      "hands-turned": "Обърнатата карта беше {card}, а не {told}.",
      "hands-count": "Записани са {count} ръце, а не 4.",
      "hands-seat": "Място {seat} получи {dealt}, а не {told}.",
      "hands-ok": "Всяка ръка е тази, която тестето дава, пакет по пакет.",
      "never-dealt":
        "Играта беше свършила след раздаване {before}: раздаване {n} изобщо не е раздавано.",
      "not-checked-after": "Непроверено: раздаване {failed} не мина.",
      "play-thrown-bid":
        "Записано като раздаване, в което всички са казали „пас“, а място {seat} казва „{action}“.",
      "play-after-end": "Действие {n} („{action}“ от място {seat}) идва след края на раздаването.",
      "play-refused": "Действие {n} („{action}“ от място {seat}) нарушава правилата: {why}",
      "play-stopped": "Играта спря по време на това раздаване.",
      "play-not-over": "Раздаването не е свършило след записаните действия.",
      "play-contract": "Обявяването дава договор {made}, а не {told}.",
      "play-ok-thrown": "Според правилата: всички казаха „пас“, раздаването е анулирано.",
      "play-ok":
        "Според правилата: договор {contract}, взет от място {seat}; {count} действия, всяка обява и карта са позволени.",
      "play-thrown-scored":
        "Записано като анулирано раздаване, но сборовете, пренесени в раздаване {n}, броят точки, спечелени в него: раздаване {m} е било изиграно.",
      "play-thrown-last":
        "Записано като анулирано раздаване, но играта свършва след него: играта свършва с изиграно раздаване, значи раздаване {m} е било изиграно (или липсва раздаване след него).",
      "score-never-ended": "Не е преброено: раздаването не свърши.",
      "score-play-failed": "Непроверено: играта не мина проверката.",
      "score-contract-differs": "Непроверено: договорът се различава.",
      "score-ok-thrown": "Нищо не е спечелено (анулирано раздаване).",
      "score-ok": "Броенето на картите, комбинациите и белота дава записаните точки.",
      "score-differs": "Картите дават {made}, а не записаното {told} (различава се {field}).",
      "result-never-ended": "Непроверено: играта не свърши.",
      "result-missing":
        "Играта не е свършила след записаните {count} раздавания: липсва раздаване {missing} (дотук отбор A {a}, отбор B {b}).",
      "result-ok": "Отбор {team} спечели с {won} на {lost}, както дава преиграването.",
      "result-differs":
        "Преиграването дава: отбор {team} спечели с {won} на {lost}; записът казва {told}.",
      dealer: "раздава",
      took: "взе",
      bot: "бот",
      turned: "Обърната: ",
      bidding: "Обявяване",
      redealt: "Всички казаха „пас“: анулирано",
      "deal-of": "{n} от {count}",
      "deal-of-thrown": "{n} от {count} (анулирано)",
      "taken-by": "{trump}, взето от {name}",
      "tricks-a": "Взятки {a} и {c}: {count}",
      "tricks-b": "{b} и {d}: {count}",
      "as-dealt": "както е раздадено",
      "end-of-deal": "край на раздаването",
      "trick-card": "взятка {trick} от {tricks}, карта {card}",
      head: "Игра {match} · раздаване {n}",
      "contract-outcome": "Договор: {outcome}",
      "deal-over": "Раздаването свърши",
      "card-points": "Точки от картите",
      tricks: "Взятки",
      melds: "Комбинации",
      belote: "Белот",
      scored: "Спечелено",
      "match-total": "Игра",
      "team-a": "Отбор A",
      "team-b": "Отбор B",
      "trump-C": "Спатия",
      "trump-D": "Каро",
      "trump-H": "Купа",
      "trump-S": "Пика",
      "trump-NT": "Без коз",
      "trump-AT": "Всичко коз",
      "outcome-made": "изпълнен",
      "outcome-set": "вкаран",
      "outcome-dispute": "спорен",
      "outcome-hanging": "висящ",
      "why-unknown": "„{action}“ не е действие в играта.",
      "why-ruleset": "правилата {ruleset} не са от тези, които ботът играе.",
      "why-target": "целта не е положителен брой точки.",
      "why-over": "играта вече беше свършила.",
      "why-no-seat": "на масата няма място {seat}.",
      "why-turn": "ред е на място {turn}, а не на място {seat}.",
      "why-bidding": "обявяването още не е свършило.",
      "why-dealer-must": "раздаващият трябва да обяви коз сега (club).",
      "why-no-double": "никой не може да каже {action} сега.",
      "why-no-value": "в {ruleset} обявата няма стойност: тя назовава договор (bid {contract}).",
      "why-no-turned": "по тези правила не се обръща карта.",
      "why-take-round": "обърнатата карта може да се вземе само в първия кръг.",
      "why-round1": "в първия кръг се взема обърнатият цвят или се казва „пас“.",
      "why-contract": "{contract} не е договор в {ruleset}.",
      "why-round2": "във втория кръг се обявява цвят, различен от обърнатия.",
      "why-higher": "обявата трябва да е по-висока от текущия договор.",
      "why-play": "обявяването свърши: трябва да се играе карта.",
      "why-not-held": "място {seat} няма {card}.",
      "why-follow": "{card} не отговаря на цвета, а мястото има {suit} (може да играе {allowed}).",
      "why-beat":
        "{card} не качва над най-силната {suit}, а мястото може (може да играе {allowed}).",
      "why-overtrump": "{card} не надцаква, а мястото може (може да играе {allowed}).",
      "why-trump":
        "{card} не е коз, а мястото има {suit} и не може да отговори (може да играе {allowed}).",
      "why-only": "правилата позволяват тук само {allowed}, а не {card}.",
      "why-belote": "белот се обявява с поп или дама коз, когато са и двете в ръката: не с {card}.",
      "why-melds": "комбинациите се обявяват с първата карта на мястото и само ако има такава.",
      "why-options": "опциите на масата не са от тези на нейните правила.",
      "why-coinche-no-bid": "още няма обява, която да се контрира.",
      "why-coinche-twice": "обявата вече е контрирана.",
      "why-coinche-own-side": "само противник на последния обявил може да контрира.",
      "why-surcoinche-defence": "само обявилият отбор може да реконтрира.",
      "why-surcoinche-no-coinche": "реконтра се казва само след контра на обявата на своя отбор.",
      "why-bid-value": "обявата казва стойността и цвета си (bid 80 H).",
      "why-bid-after-coinche": "след контра никой не обявява отново: пас или реконтра.",
      "why-bid-contract": "{contract} не е договор на тази маса.",
      "why-bid-range":
        "обявата е от 80 до 160 през 10, или капо (женерал, ако масата го позволява).",
      "why-bid-higher": "обявата трябва да е по-висока от текущата.",
      "why-bid-kind": "в коанш място обявява, пасува, контрира или реконтрира.",
      "bid-capot": "капо",
      "bid-generale": "женерал",
      coinche: "контра",
      surcoinche: "реконтра",
      "suit-C": "спатия",
      "suit-D": "каро",
      "suit-H": "купа",
      "suit-S": "пика",
    },
  };
  const LANGUAGES = { en: "English", fr: "Français", bg: "Български" };
  let current = "en";

  function pick() {
    const asked = new URLSearchParams(location.search).get("lang");
    let saved = null;
    try {
      saved = localStorage.getItem("belote-verify-lang");
    } catch {
      saved = null; // storage refused (file://, privacy settings): follow the browser
    }
    for (const tag of [asked, saved, ...(navigator.languages || [navigator.language])]) {
      const code = String(tag || "")
        .slice(0, 2)
        .toLowerCase();
      if (Object.hasOwn(TEXTS, code)) return code;
    }
    return "en";
  }

  /** The text of `key` in the current language (English if missing), values filled in. */
  function say(key, params = {}) {
    // a value may itself be a text of its own ({key, params}: a rule's reason); a suit
    // letter is named in the language
    const values = {};
    for (const [name, value] of Object.entries(params)) {
      if (value !== null && typeof value === "object" && typeof value.key === "string")
        values[name] = say(value.key, value.params || {});
      else if (name === "suit" && /^[CDHS]$/.test(String(value)))
        values[name] = say(`suit-${value}`);
      else values[name] = value;
    }
    params = values;
    const table = TEXTS[current];
    const template = Object.hasOwn(table, key) ? table[key] : (TEXTS.en[key] ?? key);
    return template.replace(/\{([a-z]+)\}/g, (whole, name) =>
      Object.hasOwn(params, name) ? String(params[name]) : whole,
    );
  }

  /** Put the texts of the current language into the page (textContent only). */
  function apply() {
    document.documentElement.lang = current;
    document.title = say("page-title");
    for (const node of document.querySelectorAll("[data-i18n]")) {
      node.textContent = say(node.dataset.i18n);
    }
  }

  function use(code, remember = false) {
    if (!Object.hasOwn(TEXTS, code)) return;
    current = code;
    if (remember) {
      try {
        localStorage.setItem("belote-verify-lang", code);
      } catch {
        // not remembered: fine
      }
    }
    apply();
  }

  current = pick();
  BeloteVerify.i18n = {
    LANGUAGES,
    TEXTS,
    apply,
    say,
    use,
    get language() {
      return current;
    },
  };
})();
