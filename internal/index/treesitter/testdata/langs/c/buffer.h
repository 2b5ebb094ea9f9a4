#ifndef BUFFER_H
#define BUFFER_H

#include <stddef.h>

/* A growable byte buffer. */
typedef struct buffer {
    char *data;
    size_t len, cap;
} buffer;

enum mode { MODE_READ, MODE_WRITE };

union value { int i; double d; };

int buffer_append(buffer *b, const char *s, size_t n);
void buffer_free(buffer *b);

#endif
