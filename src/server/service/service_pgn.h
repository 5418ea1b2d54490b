/* The PGN export of the server's games (service_pgn.c): GET /api/games/{id}/pgn, a player's file of
 * games (service_pgn_of_record, service.h) and the analysed game's PGN all write it. */
#ifndef SCHACH_SERVER_SERVICE_PGN_H
#define SCHACH_SERVER_SERVICE_PGN_H

#include <stdbool.h>

/* The longest public URL (--public-url). */
#define SERVICE_PUBLIC_URL_MAX 200

/* The site's public origin, e.g. "https://chess.example.org" (schach serve --public-url; default
 * http://localhost:PORT): a game's [Site] is it followed by /g/ID. Set once at start-up, before the
 * server answers anything (every thread reads it afterwards). false (nothing changed) unless url is
 * http:// or https:// followed by a host and optionally a path, at most SERVICE_PUBLIC_URL_MAX
 * characters of printing ASCII without quotes, backslashes or spaces; a trailing '/' is dropped. */
bool service_set_public_url(const char *url);
/* The public URL set, "" before any. */
const char *service_public_url(void);

#endif
