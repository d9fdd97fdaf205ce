/*
 * Small helpers of the ground floor, shared by the parsers (HTTP, query,
 * JSON), the monitor and the child.
 */
#ifndef CG_UTIL_H
#define CG_UTIL_H

/* Value 0-15 of an ASCII hex digit (either case), or -1 for any other byte. */
int cg_hexval(unsigned char c);

/* CLOCK_MONOTONIC in milliseconds (deadlines and durations; never fails). */
long long now_ms(void);

#endif
