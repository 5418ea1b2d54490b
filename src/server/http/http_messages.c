/* schach serve: the transport's own messages, in English and German, and the language of a request.
 * (The service words its own errors: service_messages.c.) */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http_internal.h"

static const struct {
    const char *key;
    const char *code;
    const char *en;
    const char *de;
} local_messages[] = {
    {"bad_json", "bad_json", "The request is not a JSON object.", "Die Anfrage ist kein JSON-Objekt."},
    {"nul", "bad_json", "The request contains a NUL byte.", "Die Anfrage enthält ein NUL-Byte."},
    {"binary", "bad_json", "Binary messages are not accepted; send JSON text.",
     "Binäre Nachrichten werden nicht angenommen; bitte JSON-Text senden."},
    {"too_large", "too_large", "The request is larger than 16 KiB.", "Die Anfrage ist größer als 16 KiB."},
    {"length", "bad_request", "The Content-Length header is missing, repeated or not a plain number.",
     "Der Header Content-Length fehlt, ist doppelt oder keine einfache Zahl."},
    {"chunked", "length_required", "Send the body with a Content-Length; Transfer-Encoding is not accepted.",
     "Bitte den Inhalt mit Content-Length senden; Transfer-Encoding wird nicht angenommen."},
    {"rate", "rate_limited", "Too many requests from your address; please wait and try again.",
     "Zu viele Anfragen von Ihrer Adresse; bitte warten und erneut versuchen."},
    {"rate_create", "rate_limited", "Too many new games from your address; please wait and try again.",
     "Zu viele neue Partien von Ihrer Adresse; bitte warten und erneut versuchen."},
    {"no_path", "not_found", "There is nothing at this address.", "Unter dieser Adresse gibt es nichts."},
    {"no_game", "not_found", "There is no game with this id.", "Eine Partie mit dieser Kennung gibt es nicht."},
    {"method", "method_not_allowed", "This method is not allowed for this address.",
     "Diese Methode ist für diese Adresse nicht erlaubt."},
    {"type", "bad_request", "The member \"type\" is missing or unknown.",
     "Das Feld \"type\" fehlt oder ist unbekannt."},
    {"game", "bad_request", "The member \"game\" is missing or not a game id.",
     "Das Feld \"game\" fehlt oder ist keine Partiekennung."},
    {"subs", "bad_request", "Too many subscriptions on this connection.",
     "Zu viele Abonnements auf dieser Verbindung."},
    {"hold", "bad_request", "The member \"hold\" must be {\"seek\", \"secret\"} of a seek.",
     "Das Feld \"hold\" muss {\"seek\", \"secret\"} einer Herausforderung sein."},
    {"bad_secret", "bad_secret", "This secret does not let you play in this game.",
     "Mit diesem Geheimnis kannst du in dieser Partie nicht spielen."},
    {"pending", "busy", "Too many requests are waiting; try again.",
     "Zu viele Anfragen warten; bitte erneut versuchen."},
    {"bad_origin", "bad_origin", "This request did not come from this site's pages.",
     "Diese Anfrage kam nicht von den Seiten dieser Website."},
    {"content_type", "content_type", "Requests that change something must be sent as application/json.",
     "Anfragen, die etwas ändern, müssen als application/json gesendet werden."},
    {"request_timeout", "request_timeout", "The request did not arrive in time; nothing changed.",
     "Die Anfrage kam nicht rechtzeitig an; nichts wurde geändert."},
    {"internal", "storage", "The server ran out of memory; nothing changed.",
     "Dem Server fehlt Speicher; nichts wurde geändert."},
};

void local_message(const char *key, SchLang lang, const char **code, const char **text) {
    for (size_t i = 0; i < sizeof local_messages / sizeof local_messages[0]; i++)
        if (!strcmp(local_messages[i].key, key)) {
            *code = local_messages[i].code;
            *text = lang == SCH_LANG_DE ? local_messages[i].de : local_messages[i].en;
            return;
        }
    *code = "bad_request";
    *text = key;
}

json_t *error_object(const char *key, SchLang lang) {
    const char *code, *text;
    local_message(key, lang, &code, &text);
    return json_pack("{s:s,s:s}", "code", code, "message", text);
}

bool valid_game_id(const char *s, size_t n) {
    if (n == 0 || n > STORE_ID_LEN)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return false;
    }
    return true;
}

static bool parse_lang_word(const char *s, SchLang *out) {
    if (!strcasecmp(s, "de")) {
        *out = SCH_LANG_DE;
        return true;
    }
    if (!strcasecmp(s, "en")) {
        *out = SCH_LANG_EN;
        return true;
    }
    return false;
}

/* The preferred of German and English in an Accept-Language header ("de-DE,de;q=0.9,en;q=0.8");
 * English when it names neither. Ties go to the earlier entry, as the header lists them by taste. */
static SchLang lang_from_accept(const char *h) {
    SchLang best = SCH_LANG_EN;
    double best_q = -1.0;
    while (*h) {
        const char *end = strchr(h, ',');
        size_t n = end ? (size_t)(end - h) : strlen(h);
        char item[64];
        if (n < sizeof item) {
            memcpy(item, h, n);
            item[n] = '\0';
            char *p = item;
            while (*p == ' ' || *p == '\t')
                p++;
            double q = 1.0;
            char *semi = strchr(p, ';');
            if (semi) {
                *semi = '\0';
                char *qp = strstr(semi + 1, "q=");
                if (qp)
                    q = strtod(qp + 2, NULL);
            }
            char *dash = strchr(p, '-');
            if (dash)
                *dash = '\0';
            size_t len = strlen(p);
            while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
                p[--len] = '\0';
            SchLang l;
            if (parse_lang_word(p, &l) && q > best_q) {
                best = l;
                best_q = q;
            }
        }
        if (!end)
            break;
        h = end + 1;
    }
    return best;
}

SchLang request_lang(struct lws *wsi, bool *fixed) {
    char buf[32];
    SchLang l;
    *fixed = false;
    const char *v = lws_get_urlarg_by_name(wsi, "lang=", buf, (int)sizeof buf);
    if (v && parse_lang_word(v, &l)) {
        *fixed = true;
        return l;
    }
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_ACCEPT_LANGUAGE);
    if (n > 0 && n < 512) {
        char h[512];
        if (lws_hdr_copy(wsi, h, (int)sizeof h, WSI_TOKEN_HTTP_ACCEPT_LANGUAGE) > 0)
            return lang_from_accept(h);
    }
    return SCH_LANG_EN;
}
