// Every user-visible string of the browser UI, German and English, in one place.
// The language comes from ?lang= in the address, else localStorage (the user's switch), else
// navigator.language.

const STRINGS = {
  de: {
    app_title: 'Schach',
    lang_switch: 'English',
    lang_switch_title: 'Switch to English',
    new_game: 'Neue Partie',
    home: 'Startseite',
    mode: 'Wo spielt dein Freund?',
    mode_friend: 'Woanders: er bekommt einen Einladungslink',
    mode_local: 'Hier: beide Seiten an diesem Bildschirm',
    home_title: 'Schach spielen, online und kostenlos',
    home_lead: 'Ein Konto brauchst du nicht (nur für gewertete Partien). Wähle, gegen wen du spielst:',
    doors_label: 'Gegen wen spielen?',
    door_now: 'Jetzt gegen jemanden',
    door_now_text: 'Schnellpaarung mit einem Gegner deiner Stärke, oder eine offene Herausforderung annehmen',
    door_friend: 'Gegen einen Freund',
    door_friend_text: 'Eine Partie anlegen und den Einladungslink schicken, oder zu zweit an einem Bildschirm',
    door_computer: 'Gegen den Computer',
    door_computer_text: 'Spielstärken vom Anfänger bis zur vollen Stärke',
    form_friend: 'Partie gegen einen Freund',
    form_computer: 'Partie gegen den Computer',
    mode_computer: 'Gegen den Computer',
    level: 'Spielstärke des Computers',
    level_elo: '{name} (≈ {elo} Elo)',
    computer_name: 'Computer ({level})',
    computer_thinking: 'Der Computer denkt nach …',
    levels_error: 'Die Spielstärken konnten nicht geladen werden.',
    color: 'Deine Farbe',
    white: 'Weiß',
    black: 'Schwarz',
    random: 'Zufällig',
    variant: 'Variante',
    variant_standard: 'Normales Schach',
    variant_chess960: 'Chess960 (zufällige Grundstellung)',
    variant_chess960_short: 'Chess960',
    variant_chess960_number: 'Chess960 · Stellung Nr. {n}',
    time: 'Bedenkzeit',
    time_none: 'Keine',
    time_correspondence: 'Fernschach (Tage pro Zug)',
    time_live: 'Schachuhr (Minuten + Inkrement)',
    days: 'Tage pro Zug',
    minutes: 'Minuten',
    increment: 'Inkrement (Sekunden)',
    create: 'Partie erstellen',
    my_games: 'Meine Partien (in diesem Browser)',
    recent_games: 'Zuletzt beendete Partien',
    no_games: 'Keine Partien.',
    loading: 'Lade …',
    running: 'läuft',
    moves_count: '{n} Halbzüge',
    moves_count_one: '{n} Halbzug',
    open: 'Öffnen',
    you_play: 'Du spielst {color}.',
    you_play_both: 'Du spielst beide Seiten an diesem Bildschirm.',
    spectator: 'Du schaust zu.',
    invite_label: 'Einladungslink – schicke ihn deinem Gegner:',
    private_summary: 'Auf einem anderen Gerät weiterspielen',
    private_warning: 'Achtung: Wer diesen Link öffnet, spielt deine Seite dieser Partie. Gib ihn niemandem weiter und öffne ihn nur auf deinen eigenen Geräten.',
    private_label: 'Dein privater Link:',
    spectator_label: 'Link für Zuschauer:',
    copy: 'Kopieren',
    copied: 'Kopiert.',
    waiting_opponent: 'Warte auf den Gegner …',
    turn_white: 'Weiß ist am Zug.',
    turn_black: 'Schwarz ist am Zug.',
    your_turn: 'Du bist am Zug.',
    check: 'Schach!',
    flip: 'Brett drehen',
    resign: 'Aufgeben',
    resign_confirm: 'Wirklich aufgeben?',
    resign_as: '{color} gibt auf',
    abort: 'Partie abbrechen',
    offer_draw: 'Remis anbieten',
    draw_offered_by: '{color} bietet Remis an.',
    accept_draw: 'Remis annehmen',
    decline_draw: 'Remis ablehnen',
    claim_threefold: 'Remis beanspruchen (dreifache Stellungswiederholung)',
    claim_fifty: 'Remis beanspruchen (50-Züge-Regel)',
    claim_with_move: 'Remis mit dem nächsten Zug beanspruchen',
    claim_rejected: 'Der Remisanspruch war nicht berechtigt; der Zug wurde gespielt.',
    move_input: 'Zug eingeben',
    move_input_placeholder: 'z. B. e4 oder Sf3',
    no_legal_move: '{piece} auf {square} hat keinen legalen Zug.',
    no_legal_move_check: 'Schach! {piece} auf {square} kann das Schach nicht abwehren.',
    not_your_piece: 'Das ist keine Figur der Seite am Zug.',
    the_k: 'Der König',
    the_q: 'Die Dame',
    the_r: 'Der Turm',
    the_b: 'Der Läufer',
    the_n: 'Der Springer',
    the_p: 'Der Bauer',
    send: 'Ziehen',
    promote_to: 'Umwandeln in',
    queen: 'Dame',
    rook: 'Turm',
    bishop: 'Läufer',
    knight: 'Springer',
    cancel: 'Abbrechen',
    moves: 'Züge',
    captured: 'Geschlagen',
    pgn_download: 'PGN herunterladen',
    pgn_de: 'PGN (deutsche Figuren)',
    pgn_en: 'PGN (englische Figuren)',
    fen: 'FEN',
    connected: 'Verbunden',
    disconnected: 'Verbindung unterbrochen – verbinde neu …',
    connecting: 'Verbinde …',
    deadline: 'Zug fällig bis {date}',
    no_deadline: 'Noch keine Frist',
    time_left: 'noch {left}',
    not_found: 'Diese Partie gibt es nicht.',
    network_error: 'Der Server ist nicht erreichbar.',
    created: 'Erstellt',
    result: 'Ergebnis',
    mode_friend_short: 'Freund',
    mode_local_short: 'Lokal',
    mode_computer_short: 'Computer ({level})',
    tc_none: 'ohne Uhr',
    tc_live: '{m}+{i}',
    tc_corr: '{d} Tage/Zug',
    // Endings. {winner}/{loser} are colour names.
    end_checkmate: 'Schachmatt – {winner} gewinnt',
    end_stalemate: 'Remis durch Patt',
    end_insufficient_material: 'Remis – kein Matt mehr möglich (ungenügendes Material)',
    end_fivefold_repetition: 'Remis durch fünffache Stellungswiederholung',
    end_seventyfive_moves: 'Remis durch die 75-Züge-Regel',
    end_threefold_repetition: 'Remis durch dreifache Stellungswiederholung',
    end_fifty_moves: 'Remis durch die 50-Züge-Regel',
    end_resignation: '{loser} gibt auf – {winner} gewinnt',
    end_agreement: 'Remis durch Vereinbarung',
    end_time_forfeit: 'Zeitüberschreitung – {winner} gewinnt',
    end_timeout_insufficient_material: 'Zeitüberschreitung von {flagged} – Remis, {other} kann nicht mehr mattsetzen',
    end_abandoned: 'Zugfrist überschritten – {winner} gewinnt',
    // Dead positions and 6.9 draws beyond material show the server's words (outcome.text_de), which
    // name the reason; these only stand in when a state has none.
    end_dead_position: 'Remis: tote Stellung – kein Matt ist mehr möglich',
    end_timeout_unwinnable: 'Zeitüberschreitung von {flagged} – Remis, {other} kann nicht mehr mattsetzen',
    end_aborted: 'Partie abgebrochen',
    end_unknown: 'Partie beendet ({result})',
  },
  en: {
    app_title: 'Chess',
    lang_switch: 'Deutsch',
    lang_switch_title: 'Auf Deutsch umschalten',
    new_game: 'New game',
    home: 'Home',
    mode: 'Where does your friend play?',
    mode_friend: 'Elsewhere: they get an invitation link',
    mode_local: 'Here: both sides on this screen',
    home_title: 'Play chess online, for free',
    home_lead: 'No account needed (only for rated games). Choose whom to play:',
    doors_label: 'Whom to play?',
    door_now: 'Play someone now',
    door_now_text: 'Quick pairing with an opponent of your strength, or accept an open challenge',
    door_friend: 'Play a friend',
    door_friend_text: 'Create a game and send the invitation link, or play both sides on one screen',
    door_computer: 'Play the computer',
    door_computer_text: 'Levels from beginner to full strength',
    form_friend: 'A game against a friend',
    form_computer: 'A game against the computer',
    mode_computer: 'Play against the computer',
    level: 'Computer strength',
    level_elo: '{name} (≈ {elo} Elo)',
    computer_name: 'Computer ({level})',
    computer_thinking: 'The computer is thinking …',
    levels_error: 'The levels could not be loaded.',
    color: 'Your colour',
    white: 'White',
    black: 'Black',
    random: 'Random',
    variant: 'Variant',
    variant_standard: 'Standard chess',
    variant_chess960: 'Chess960 (random start position)',
    variant_chess960_short: 'Chess960',
    variant_chess960_number: 'Chess960 · position no. {n}',
    time: 'Time control',
    time_none: 'None',
    time_correspondence: 'Correspondence (days per move)',
    time_live: 'Clock (minutes + increment)',
    days: 'Days per move',
    minutes: 'Minutes',
    increment: 'Increment (seconds)',
    create: 'Create game',
    my_games: 'My games (in this browser)',
    recent_games: 'Recently finished games',
    no_games: 'No games.',
    loading: 'Loading …',
    running: 'in progress',
    moves_count: '{n} plies',
    moves_count_one: '{n} ply',
    open: 'Open',
    you_play: 'You play {color}.',
    you_play_both: 'You play both sides on this screen.',
    spectator: 'You are watching.',
    invite_label: 'Invitation link – send it to your opponent:',
    private_summary: 'Continue on another device',
    private_warning: 'Warning: whoever opens this link plays your side of this game. Do not share it; open it only on your own devices.',
    private_label: 'Your private link:',
    spectator_label: 'Link for spectators:',
    copy: 'Copy',
    copied: 'Copied.',
    waiting_opponent: 'Waiting for the opponent …',
    turn_white: 'White to move.',
    turn_black: 'Black to move.',
    your_turn: 'Your move.',
    check: 'Check!',
    flip: 'Flip board',
    resign: 'Resign',
    resign_confirm: 'Really resign?',
    resign_as: '{color} resigns',
    abort: 'Abort game',
    offer_draw: 'Offer a draw',
    draw_offered_by: '{color} offers a draw.',
    accept_draw: 'Accept draw',
    decline_draw: 'Decline draw',
    claim_threefold: 'Claim a draw (threefold repetition)',
    claim_fifty: 'Claim a draw (fifty-move rule)',
    claim_with_move: 'Claim a draw with the next move',
    claim_rejected: 'The draw claim was not correct; the move was played.',
    move_input: 'Enter a move',
    move_input_placeholder: 'e.g. e4 or Nf3',
    no_legal_move: '{piece} on {square} has no legal move.',
    no_legal_move_check: 'Check! {piece} on {square} cannot stop the check.',
    the_k: 'The king',
    the_q: 'The queen',
    the_r: 'The rook',
    the_b: 'The bishop',
    the_n: 'The knight',
    the_p: 'The pawn',
    not_your_piece: 'That is not a piece of the side to move.',
    send: 'Move',
    promote_to: 'Promote to',
    queen: 'Queen',
    rook: 'Rook',
    bishop: 'Bishop',
    knight: 'Knight',
    cancel: 'Cancel',
    moves: 'Moves',
    captured: 'Captured',
    pgn_download: 'Download PGN',
    pgn_de: 'PGN (German letters)',
    pgn_en: 'PGN (English letters)',
    fen: 'FEN',
    connected: 'Connected',
    disconnected: 'Connection lost – reconnecting …',
    connecting: 'Connecting …',
    deadline: 'Move due by {date}',
    no_deadline: 'No deadline yet',
    time_left: '{left} left',
    not_found: 'This game does not exist.',
    network_error: 'The server cannot be reached.',
    created: 'Created',
    result: 'Result',
    mode_friend_short: 'Friend',
    mode_local_short: 'Local',
    mode_computer_short: 'Computer ({level})',
    tc_none: 'no clock',
    tc_live: '{m}+{i}',
    tc_corr: '{d} days/move',
    end_checkmate: 'Checkmate – {winner} wins',
    end_stalemate: 'Draw by stalemate',
    end_insufficient_material: 'Draw – no mate possible (insufficient material)',
    end_fivefold_repetition: 'Draw by fivefold repetition',
    end_seventyfive_moves: 'Draw by the seventy-five-move rule',
    end_threefold_repetition: 'Draw by threefold repetition',
    end_fifty_moves: 'Draw by the fifty-move rule',
    end_resignation: '{loser} resigns – {winner} wins',
    end_agreement: 'Draw by agreement',
    end_time_forfeit: 'Time forfeit – {winner} wins',
    end_timeout_insufficient_material: '{flagged} ran out of time – draw, {other} cannot mate',
    end_abandoned: 'Move deadline missed – {winner} wins',
    end_dead_position: 'Draw: dead position – no checkmate is possible any more',
    end_timeout_unwinnable: '{flagged} ran out of time – draw, {other} cannot mate',
    end_aborted: 'Game aborted',
    end_unknown: 'Game over ({result})',
  },
};

const LANG_KEY = 'schach.lang';

function detect() {
  // ?lang=de or ?lang=en in the address chooses as the language switch does, and is remembered.
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === 'de' || asked === 'en') {
    try {
      localStorage.setItem(LANG_KEY, asked);
    } catch (_) {
      // Not remembered, but this page follows it.
    }
    return asked;
  }
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved === 'de' || saved === 'en') return saved;
  } catch (_) {
    // Storage may be disabled; fall back to the browser's language.
  }
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const l of langs) {
    const p = String(l).toLowerCase().slice(0, 2);
    if (p === 'de' || p === 'en') return p;
  }
  return 'en';
}

let current = detect();

/** The page's language: "de" or "en". */
export function lang() {
  return current;
}

/** Switches the language and remembers the choice. */
export function setLang(l) {
  current = l === 'de' ? 'de' : 'en';
  try {
    localStorage.setItem(LANG_KEY, current);
  } catch (_) {
    // Not remembered, but the switch still applies to this page.
  }
  document.documentElement.lang = current;
}

/** Adds a module's strings (TABLE: {de: {...}, en: {...}}): each page module keeps its own words in
 *  a strings file beside it (strings-*.js) and registers them when it is imported. A key given twice
 *  is a mistake and is reported in the console. */
export function registerStrings(table) {
  for (const l of ['de', 'en']) {
    for (const [k, v] of Object.entries(table[l] || {})) {
      if (k in STRINGS[l]) console.error(`i18n: ${l}.${k} given twice`);
      STRINGS[l][k] = v;
    }
  }
}

/** The string KEY in the page's language with {name} placeholders filled from PARAMS. */
export function t(key, params = {}) {
  const s = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** A computer level's name in the page's language (LEVEL: {id, name, name_de}). */
export function levelName(level) {
  if (!level) return '';
  return (current === 'de' ? level.name_de : level.name) || level.name || level.id || level.level || '';
}

/** "Weiß"/"White" for "white", "Schwarz"/"Black" for "black". */
export function colorName(c) {
  return t(c === 'black' ? 'black' : 'white');
}

/** The ending of a game in words, from a state object (its outcome and, for flag falls, its turn). */
export function outcomeText(state) {
  const outcome = state && state.outcome;
  if (!outcome) return '';
  const winner = outcome.winner;
  const loser = winner === 'white' ? 'black' : winner === 'black' ? 'white' : null;
  // The flag falls for the side to move; the other side is the one that cannot mate (FIDE 6.9).
  const flagged = state.turn === 'black' ? 'black' : 'white';
  const params = {
    result: outcome.result,
    flagged: colorName(flagged),
    other: colorName(flagged === 'white' ? 'black' : 'white'),
  };
  if (winner) {
    params.winner = colorName(winner);
    params.loser = colorName(loser);
  }
  // Why a position is dead (FIDE 5.2.2, 6.9) is the rules core's to say: its sentence comes with the
  // state in both languages (libschach's outcome_describe).
  const words = current === 'de' ? outcome.text_de : outcome.text;
  if (outcome.reason && words) return words;
  const key = 'end_' + outcome.termination;
  if (!(key in STRINGS.en)) return t('end_unknown', params);
  if (outcome.termination === 'resignation' && !winner) return t('end_unknown', params);
  return t(key, params);
}

/** Fills the text of every element with data-i18n="key" below ROOT. */
export function translateDom(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll('[data-i18n-aria-label]')) el.setAttribute('aria-label', t(el.dataset.i18nAriaLabel));
}

document.documentElement.lang = current;
