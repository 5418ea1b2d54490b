/* Request bodies: one JSON object with exactly the members an action names (docs/api.md). Every
 * refusal names the member, in the requester's language. */
#include <stdio.h>
#include <string.h>

#include "service_requests.h"

/* The WebSocket envelope and the language, accepted in every body. */
static const Field envelope[] = {{"type", 's', false}, {"game", 's', false}, {"id", '*', false}, {"lang", 's', false}};
enum { ENVELOPE_COUNT = sizeof envelope / sizeof envelope[0] };

static const Field *field_find(const Field *fields, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(fields[i].name, name) == 0)
            return &fields[i];
    return NULL;
}

bool svc_members_check(Req *r, json_t *obj, const Field *fields, size_t n, bool with_envelope, const char *prefix) {
    char name[96];
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        const Field *f = field_find(fields, n, key);
        if (!f && with_envelope)
            f = field_find(envelope, ENVELOPE_COUNT, key);
        snprintf(name, sizeof name, "%s%s", prefix, key);
        if (!f) {
            char shown[64];
            sch_err_text_arg(key, strlen(key), shown, sizeof shown);
            snprintf(name, sizeof name, "%s%s", prefix, shown);
            svc_reply_error(r, SVC_E_UNKNOWN, name);
            return false;
        }
        SvcError e = SVC_E_COUNT;
        if (f->type == 's' && !json_is_string(value))
            e = SVC_E_NOT_STRING;
        else if (f->type == 'i' && !json_is_integer(value))
            e = SVC_E_NOT_INTEGER;
        else if (f->type == 'o' && !json_is_object(value))
            e = SVC_E_NOT_OBJECT;
        if (e != SVC_E_COUNT) {
            svc_reply_error(r, e, name);
            return false;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (fields[i].required && !json_object_get(obj, fields[i].name)) {
            snprintf(name, sizeof name, "%s%s", prefix, fields[i].name);
            svc_reply_error(r, SVC_E_MISSING, name);
            return false;
        }
    return true;
}

/* The body as an object of its own (json_decref it): the one the transport parsed, or the text read. */
static json_t *body_object(Req *r) {
    if (r->in->json) {
        /* The limit of a text body: what the object would be as compact JSON text, counted without
         * writing it (jansson writes a real number with a ".0" or exponent: 1e9 as 1000000000.0). */
        if (json_dumpb(r->in->json, NULL, 0, JSON_COMPACT | JSON_ENCODE_ANY) > SVC_BODY_MAX) {
            svc_reply_error(r, SVC_E_TOO_LARGE, NULL);
            return NULL;
        }
        return json_incref(r->in->json);
    }
    const char *body = r->in->body ? r->in->body : "";
    if (strlen(body) > SVC_BODY_MAX) {
        svc_reply_error(r, SVC_E_TOO_LARGE, NULL);
        return NULL;
    }
    json_error_t jerr;
    json_t *obj = json_loads(body, JSON_REJECT_DUPLICATES, &jerr);
    if (!obj)
        svc_reply_error(r, SVC_E_BAD_JSON, NULL);
    return obj;
}

json_t *svc_body_parse(Req *r, const Field *fields, size_t n) {
    json_t *obj = body_object(r);
    if (!obj)
        return NULL;
    if (!json_is_object(obj)) {
        json_decref(obj);
        svc_reply_error(r, SVC_E_BAD_JSON, NULL);
        return NULL;
    }
    json_t *lang = json_object_get(obj, "lang");
    if (json_is_string(lang)) {
        const char *l = json_string_value(lang);
        if (strcmp(l, "de") != 0 && strcmp(l, "en") != 0) {
            svc_reply_error(r, SVC_E_VALUE, "lang");
            json_decref(obj);
            return NULL;
        }
        if (!r->in->lang_explicit)
            r->lang = strcmp(l, "de") == 0 ? SCH_LANG_DE : SCH_LANG_EN;
    }
    if (!svc_members_check(r, obj, fields, n, true, "")) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

bool svc_unpack_failed(Req *r, json_t *obj, const json_error_t *jerr) {
    char shown[SCH_ERR_ARG_MAX];
    sch_err_text_arg(jerr->text, strlen(jerr->text), shown, sizeof shown);
    svc_reply_error(r, SVC_E_VALUE, shown);
    json_decref(obj);
    return false;
}

/* One integer member of "time": absent (*present false), or within lo..hi. false when present but
 * outside (or present where the type allows none: lo > hi). */
static bool time_member(json_t *time, const char *name, json_int_t lo, json_int_t hi, int *out, bool *present) {
    json_t *v = json_object_get(time, name);
    *present = v != NULL;
    *out = 0;
    if (!v)
        return true;
    json_int_t n = json_integer_value(v); /* an integer: members_check saw to that */
    if (n < lo || n > hi)
        return false;
    *out = (int)n;
    return true;
}

bool svc_time_parse(Req *r, json_t *time, TimeControl *t) {
    static const Field fields[] = {
        {"type", 's', true}, {"minutes", 'i', false}, {"increment", 'i', false}, {"days", 'i', false}};
    *t = (TimeControl){TIME_NONE, 0, 0, 0};
    if (!time)
        return true;
    if (!svc_members_check(r, time, fields, sizeof fields / sizeof fields[0], false, "time."))
        return false;
    if (!time_type_of(json_string_value(json_object_get(time, "type")), &t->type)) {
        svc_reply_error(r, SVC_E_VALUE, "time.type");
        return false;
    }
    /* Each member's range for the type; lo > hi: the member has no place in it. */
    json_int_t min_lo = 1, min_hi = 180, inc_lo = 0, inc_hi = 180, days_lo = 1, days_hi = 30;
    bool live = t->type == TIME_LIVE, corr = t->type == TIME_CORRESPONDENCE;
    if (!live)
        min_lo = inc_lo = 1, min_hi = inc_hi = 0;
    if (!corr)
        days_lo = 1, days_hi = 0;
    bool has_min = false, has_inc = false, has_days = false;
    const char *bad = NULL;
    if (!time_member(time, "minutes", min_lo, min_hi, &t->minutes, &has_min))
        bad = "time.minutes";
    else if (!time_member(time, "increment", inc_lo, inc_hi, &t->increment, &has_inc))
        bad = "time.increment";
    else if (!time_member(time, "days", days_lo, days_hi, &t->days, &has_days))
        bad = "time.days";
    else if (live && !has_min)
        bad = "time.minutes";
    else if (corr && !has_days)
        bad = "time.days";
    if (bad) {
        svc_reply_error(r, SVC_E_VALUE, bad);
        return false;
    }
    return true;
}
