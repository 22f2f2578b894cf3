/* Result names (from the HL_RESULTS list) and the thread-local last error. */
#include <stdio.h>
#include <string.h>

#include "hl_base.h"

static const char *const hl__result_names[] = {
#define HL__RESULT_NAME(name, text) #name,
    HL_RESULTS(HL__RESULT_NAME)
#undef HL__RESULT_NAME
};
static const char *const hl__result_texts[] = {
#define HL__RESULT_TEXT(name, text) text,
    HL_RESULTS(HL__RESULT_TEXT)
#undef HL__RESULT_TEXT
};

const char *hl_result_name(hl_result r) {
    return ((unsigned)r < HL_RESULT_COUNT) ? hl__result_names[r] : "HL_UNKNOWN";
}

const char *hl_result_text(hl_result r) {
    return ((unsigned)r < HL_RESULT_COUNT) ? hl__result_texts[r] : "unknown result code";
}

static _Thread_local char hl__last_message[512];
static _Thread_local hl_result hl__last_code;

const char *hl_last_error(void) { return hl__last_message; }
hl_result hl_last_error_code(void) { return hl__last_code; }

void hl_clear_error(void) {
    hl__last_message[0] = '\0';
    hl__last_code = HL_OK;
}

hl_result hl__failv(hl_result code, const char *fmt, va_list ap) {
    hl__last_code = code;
    if (fmt) {
        /* format aside first: callers may wrap the previous message (an argument that points
           into hl__last_message) */
        char buf[sizeof hl__last_message];
        vsnprintf(buf, sizeof buf, fmt, ap);
        memcpy(hl__last_message, buf, sizeof buf);
    } else {
        snprintf(hl__last_message, sizeof hl__last_message, "%s", hl_result_text(code));
    }
    return code;
}

hl_result hl__fail(hl_result code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    hl_result r = hl__failv(code, fmt, ap);
    va_end(ap);
    return r;
}
