#include "jv.h"

struct jv_refcnt { int count; };

static int jvp_refcnt_unshared(struct jv_refcnt *c) {
  return c->count == 1;
}

jv jv_contains(jv a, jv b) {
  return a;
}
