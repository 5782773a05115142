/* A Vabanque bot in C (C99, no library but libc): answers every request with the first legal
 * action. The tests build it with gcc and run `referee check` on it, with and without the
 * sandbox, to show that a C program starts and plays under the referee's system-call filter.
 *
 * A JSON parser is more than it needs: it finds the fields of the top-level object ("type",
 * "id", "legal") with a scanner that skips strings and nested values. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The end of the JSON string starting at `p` (on its opening quote): its closing quote. */
static const char *string_end(const char *p) {
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
            p++;
    return p;
}

/* The length of the JSON value starting at `v`. */
static size_t value_len(const char *v) {
    const char *p = v;
    int depth = 0;
    if (*p != '"' && *p != '{' && *p != '[') {
        while (*p && !strchr(",}] \t\r\n", *p))
            p++;
        return (size_t)(p - v);
    }
    do {
        if (*p == '"')
            p = string_end(p);
        else if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            depth--;
        if (*p)
            p++;
    } while (*p && depth > 0);
    return (size_t)(p - v);
}

/* The value of `key` in the top-level object `line`, or NULL. */
static const char *field(const char *line, const char *key) {
    size_t n = strlen(key);
    int depth = 0;
    for (const char *p = line; *p; p++) {
        if (*p == '"') {
            const char *start = p + 1;
            p = string_end(p);
            if (!*p)
                return NULL;
            if (depth == 1 && (size_t)(p - start) == n && strncmp(start, key, n) == 0) {
                const char *q = p + 1;
                while (*q == ' ')
                    q++;
                if (*q == ':') {
                    for (q++; *q == ' '; q++)
                        ;
                    return q;
                }
            }
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        }
    }
    return NULL;
}

/* Whether the top-level "type" of `line` is `type`. */
static int is(const char *line, const char *type) {
    const char *v = field(line, "type");
    size_t n = strlen(type);
    return v && v[0] == '"' && strncmp(v + 1, type, n) == 0 && v[n + 1] == '"';
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        if (is(line, "hello")) {
            printf("{\"type\":\"hello\",\"name\":\"c-first\",\"protocol\":1}\n");
        } else if (is(line, "request")) {
            const char *id = field(line, "id");
            const char *legal = field(line, "legal");
            if (!id || !legal || *legal != '[')
                continue;
            const char *first = legal + 1;
            while (*first == ' ')
                first++;
            printf("{\"type\":\"action\",\"id\":%.*s,\"action\":%.*s}\n", (int)value_len(id), id,
                   (int)value_len(first), first);
        } else if (is(line, "goodbye")) {
            break;
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
