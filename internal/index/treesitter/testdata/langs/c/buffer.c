#include <stdlib.h>
#include <string.h>
#include "buffer.h"
#include "../util/log.h"

#define GROW(n) ((n) * 2 + 16)

static int grow(buffer *b, size_t need);

/* Appends n bytes of s — growing the buffer when it is full. */
int buffer_append(buffer *b, const char *s, size_t n)
{
    if (b->len + n > b->cap && grow(b, b->len + n) != 0) {
        log_error("out of memory");
        return -1;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}

// 日本語: frees the buffer.
void buffer_free(buffer *b) {
    free(b->data);
    b->data = NULL;
}

static int grow(buffer *b, size_t need) {
    size_t cap = GROW(b->cap);
    char *p = realloc(b->data, cap < need ? need : cap);
    if (!p) return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

struct node {
    struct node *next;
    int value;
};

static const char *mode_name(enum mode m) {
    switch (m) {
    case MODE_READ: return "read";
    default: return "write";
    }
}

int broken(int x) {
    return x + ;
}

int after_broken(void) { return mode_name(MODE_READ)[0]; }
