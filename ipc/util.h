/* Small character helpers shared by the parsers (HTTP, query, JSON). */
#ifndef CG_UTIL_H
#define CG_UTIL_H

/* Value 0-15 of an ASCII hex digit (either case), or -1 for any other byte. */
int cg_hexval(unsigned char c);

#endif
