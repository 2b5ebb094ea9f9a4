/* A C header: the same macros stay C. */
typedef struct jv_refcnt { int count; } jv_refcnt;

static inline int jv_is_valid(int kind) { return kind != 0; }
